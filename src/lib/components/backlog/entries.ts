/**
 * Backlog rows from play-log messages: one row per paragraph of a GM reply (speaker and text as the
 * stage shows them, parsed with `parseScript`, never the raw tag), one row per player line. The
 * harness's operator instructions are not part of the story and are left out.
 */
import { parseScript } from '../../adv';
import type { MessageDto } from '../../types/log';

type EntryKind = 'narration' | 'dialogue' | 'player' | 'system';

export interface BacklogEntry {
	/** Stable across pages and re-renders: `${messageId}:${paragraph}`. */
	readonly key: string;
	readonly messageId: number;
	/** The paragraph index the stage cues count with (0 for a player line). */
	readonly paragraph: number;
	readonly kind: EntryKind;
	/** The speaking character of a dialogue paragraph; null otherwise. */
	readonly speaker: string | null;
	readonly expression: string | null;
	readonly text: string;
}

export function entriesOf(message: Pick<MessageDto, 'id' | 'role' | 'body'>): BacklogEntry[] {
	const base = { messageId: message.id, speaker: null, expression: null };
	switch (message.role) {
		case 'operator':
			return [];
		case 'player':
		case 'system': {
			const text = message.body.trim();
			return text === '' ? [] : [{ ...base, key: `${message.id}:0`, paragraph: 0, kind: message.role, text }];
		}
		case 'gm':
			return parseScript(message.body, { final: true }).flatMap((p): BacklogEntry[] => {
				// An empty paragraph (a lone tag) keeps its number for the cues but has nothing to read.
				if (p.text === '') return [];
				const key = `${message.id}:${p.index}`;
				if (p.kind === 'dialogue')
					return [
						{ ...base, key, paragraph: p.index, kind: 'dialogue', speaker: p.speaker, expression: p.expression ?? null, text: p.text }
					];
				return [{ ...base, key, paragraph: p.index, kind: 'narration', text: p.text }];
			});
	}
}

export function entriesOfAll(messages: readonly Pick<MessageDto, 'id' | 'role' | 'body'>[]): BacklogEntry[] {
	return messages.flatMap(entriesOf);
}

/** Line height and per-row padding the estimate assumes; measuring corrects it. */
const ESTIMATE_LINE_PX = 24;
const ESTIMATE_ROW_EXTRA_PX = 20;
const SPEAKER_LINE_PX = 20;
/** Rough width of a character in pixels; a CJK character is about twice a Latin one. */
const LATIN_CHAR_PX = 8;
const WIDE_CHAR_PX = 16;
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/gu;
const NEWLINES = /\n/g;

/**
 * A first guess of a row's height for a list `width` pixels wide, before it is measured. Linear in
 * the text with two regex scans: it runs for every row of every page loaded.
 */
export function estimateHeight(entry: Pick<BacklogEntry, 'text' | 'speaker' | 'kind'>, width: number): number {
	const usable = Math.max(120, width);
	const wide = entry.text.match(WIDE)?.length ?? 0;
	const breaks = entry.text.match(NEWLINES)?.length ?? 0;
	const px = wide * WIDE_CHAR_PX + (entry.text.length - wide - breaks) * LATIN_CHAR_PX;
	const lines = Math.max(1, Math.ceil(px / usable)) + breaks;
	return lines * ESTIMATE_LINE_PX + ESTIMATE_ROW_EXTRA_PX + (entry.kind === 'dialogue' || entry.kind === 'player' ? SPEAKER_LINE_PX : 0);
}

/**
 * The exchange the text window tells (one player line and the GM's answer to it) and its paragraphs
 * as lines: what a reply, streaming or committed, reads as once its speaker tags are parsed.
 */
import { parseScript } from '../adv';
import type { MessageDto } from '../types/log';

type LineKind = 'player' | 'narration' | 'dialogue';

/** One paragraph of the text window. */
export interface Line {
	/** `${turn}:in` for the player's line, `${turn}:${paragraph}` for the GM's. */
	key: string;
	kind: LineKind;
	speaker: string | null;
	expression: string | null;
	/** The reply's paragraph number (what cues refer to); -1 for the player's line. */
	paragraph: number;
	text: string;
	partial: boolean;
}

type ExchangeOutcome = 'streaming' | 'committed' | 'failed' | 'cancelled' | 'interrupted';

/** What the text window tells: one player line and the GM's answer to it. */
export interface Exchange {
	turnId: string | null;
	input: string | null;
	reply: string;
	/** The reply is complete (committed): its last paragraph will not grow. */
	final: boolean;
	/** The committed GM message, once known: the stage plays its cues. */
	messageId: number | null;
	outcome: ExchangeOutcome;
}

/** The key suffix of the player's line in an exchange (`${turn}:in`). */
const PLAYER_LINE = 'in';

export function exchangeLines(x: Exchange | null): Line[] {
	if (!x) return [];
	const prefix = x.turnId ?? `m${x.messageId ?? 0}`;
	const lines: Line[] = [];
	if (x.input !== null)
		lines.push({
			key: `${prefix}:${PLAYER_LINE}`,
			kind: 'player',
			speaker: null,
			expression: null,
			paragraph: -1,
			text: x.input,
			partial: false
		});
	if (x.outcome === 'failed' || x.outcome === 'cancelled' || x.outcome === 'interrupted') return lines;
	for (const p of parseScript(x.reply, { final: x.final })) {
		// A complete paragraph with no text (a tag and nothing else) is not worth a click.
		if (p.text === '' && !p.partial) continue;
		lines.push({
			key: `${prefix}:${p.index}`,
			kind: p.kind,
			speaker: p.kind === 'dialogue' ? p.speaker : null,
			expression: p.kind === 'dialogue' ? (p.expression ?? null) : null,
			paragraph: p.index,
			text: p.text,
			partial: p.partial
		});
	}
	return lines;
}

/** The exchange the screen opens on: the newest GM message and the player line before it. */
export function lastExchange(messages: readonly MessageDto[]): Exchange | null {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m?.role !== 'gm') continue;
		const player = messages.slice(0, i).findLast((p) => p.role === 'player' && p.turnId !== null && p.turnId === m.turnId);
		return { turnId: m.turnId, input: player?.body ?? null, reply: m.body, final: true, messageId: m.id, outcome: 'committed' };
	}
	return null;
}

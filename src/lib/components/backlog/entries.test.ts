/** Backlog rows from play-log messages: parsed speakers (never raw tags), player lines whole, height estimates. */
import { describe, expect, it } from 'vitest';
import { entriesOf, entriesOfAll, estimateHeight } from './entries';
import type { MessageDto } from '../../types/log';

const at = '2026-01-01T00:00:00.000Z';
const gm = (id: number, body: string): MessageDto => ({ id, role: 'gm', speaker: null, body, turnId: null, createdAt: at });
const player = (id: number, body: string): MessageDto => ({ id, role: 'player', speaker: null, body, turnId: null, createdAt: at });

describe('entriesOf', () => {
	it('gives one row per paragraph with the parsed speaker, and no raw tag text', () => {
		const rows = entriesOf(gm(7, 'Fog.\n\n@Bram(stern): Halt!\n\n@Broken(: tag text\n\n＠アナ（笑顔）：こんにちは'));
		expect(rows.map((r) => [r.key, r.kind, r.speaker, r.text])).toEqual([
			['7:0', 'narration', null, 'Fog.'],
			['7:1', 'dialogue', 'Bram', 'Halt!'],
			['7:2', 'narration', null, 'tag text'],
			['7:3', 'dialogue', 'アナ', 'こんにちは']
		]);
		expect(rows.some((r) => r.text.includes('@') || r.text.includes('＠'))).toBe(false);
		expect(rows[1]?.expression).toBe('stern');
	});

	it('keeps player lines whole, leaves operator instructions out, and skips empty paragraphs', () => {
		expect(entriesOf(player(1, 'I open the door.\n\nThen I wait.')).map((r) => [r.kind, r.paragraph, r.text])).toEqual([
			['player', 0, 'I open the door.\n\nThen I wait.']
		]);
		expect(entriesOf({ id: 2, role: 'operator', body: 'Write a checkpoint.' })).toEqual([]);
		expect(entriesOf(gm(3, '@Bram:\n\nSilence.')).map((r) => r.paragraph)).toEqual([1]);
		expect(entriesOf(gm(4, ''))).toEqual([]);
	});

	it('estimates taller rows for longer and wider text', () => {
		const short = estimateHeight({ text: 'Hi.', speaker: null, kind: 'narration' }, 400);
		const long = estimateHeight({ text: 'word '.repeat(200), speaker: null, kind: 'narration' }, 400);
		const wide = estimateHeight({ text: '霧'.repeat(200), speaker: null, kind: 'narration' }, 400);
		expect(long).toBeGreaterThan(short);
		expect(wide).toBeGreaterThan(estimateHeight({ text: 'a'.repeat(200), speaker: null, kind: 'narration' }, 400));
	});

	it('lists every message’s rows in log order', () => {
		const rows = entriesOfAll([
			player(1, 'I knock.'),
			gm(2, 'Fog.\n\n@Bram: Who is there?'),
			{ id: 3, role: 'operator', body: 'Checkpoint.' }
		]);
		expect(rows.map((r) => r.key)).toEqual(['1:0', '2:0', '2:1']);
	});

	it('estimates a line per line break, a line for the speaker, and taller rows in a narrower list', () => {
		const line = { text: 'Hi.', speaker: null, kind: 'narration' } as const;
		const narration = estimateHeight(line, 400);
		expect(estimateHeight({ ...line, text: 'Hi.\nHo.\nHa.' }, 400)).toBeGreaterThan(estimateHeight({ ...line, text: 'Hi. Ho. Ha.' }, 400));
		expect(estimateHeight({ ...line, kind: 'dialogue', speaker: 'Bram' }, 400)).toBeGreaterThan(narration);
		expect(estimateHeight({ ...line, kind: 'player' }, 400)).toBeGreaterThan(narration);
		expect(estimateHeight({ ...line, kind: 'system' }, 400)).toBe(narration);
		const long = { ...line, text: 'word '.repeat(100) };
		expect(estimateHeight(long, 200)).toBeGreaterThan(estimateHeight(long, 800));
		// A list too narrow to measure (not laid out yet) is taken as a narrow column, not as zero wide.
		expect(estimateHeight(long, 0)).toBe(estimateHeight(long, 120));
		expect(Number.isFinite(estimateHeight(long, 0))).toBe(true);
	});
});

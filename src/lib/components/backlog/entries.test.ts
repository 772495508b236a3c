/** Backlog rows from play-log messages: parsed speakers (never raw tags), player lines whole, height estimates. */
import { describe, expect, it } from 'vitest';
import { entriesOf, estimateHeight } from './entries';
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
});

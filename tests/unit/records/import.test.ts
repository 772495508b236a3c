import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import {
	importRecord,
	ImportLineSchema,
	state,
	journal,
	memory,
	documents,
	summaries,
	story,
	log,
	RECORD_KINDS,
	KIND_VISIBILITY
} from '../../../src/lib/server/records';
import { useSessions, sectionRows, dump, caught } from './helpers';

const session = useSessions();

describe('importRecord', () => {
	it('writes each kind the way the JSONL import describes', () =>
		session(async (s) => {
			const lines: unknown[] = [
				{ kind: 'state', body: '{"hp": 10, "location": "inn"}' },
				{ kind: 'state', body: '{"hp": 8}' },
				{ kind: 'journal', body: 'Arrived at the inn.', ref: 'j1' },
				{ kind: 'memory', title: 'Mira', body: 'A guard.', ref: 'm1' },
				{ kind: 'document', title: 'World', body: '# Town\nQuiet.' },
				{ kind: 'document', title: 'Secrets', body: 'The lord did it.', gmOnly: true },
				{ kind: 'summary', body: '## 現在のシーン\n宿屋' },
				{ kind: 'story', title: 'culprit', body: '領主が黒幕。' },
				{ kind: 'story', title: 'act1', body: 'Fire at the gate.', type: 'plot' },
				{ kind: 'log', body: 'Welcome.' },
				{ kind: 'log', body: '北門へ', role: 'player', speaker: 'Aki', extra: 'ignored' }
			];
			const results = [];
			for (const line of lines) results.push(await s.write((tx) => importRecord(tx, line)));
			expect(results.map((r) => r.kind)).toEqual([
				'state',
				'state',
				'journal',
				'memory',
				'document',
				'document',
				'summary',
				'story',
				'story',
				'log',
				'log'
			]);

			expect(await state.get(s.db)).toEqual({ doc: { hp: 8, location: 'inn' }, version: 2 });
			expect((await journal.recent(s.db, 1))[0]?.ref).toBe('j1');
			expect((await memory.view(s.db, 'Mira')).ref).toBe('m1');
			expect((await documents.list(s.db, { includeGmOnly: true })).map((d) => [d.title, d.gmOnly])).toEqual([
				['World', false],
				['Secrets', true]
			]);
			expect((await summaries.latest(s.db))?.body).toContain('宿屋');
			expect((await story.read(s.db)).map((e) => [e.type, e.key])).toEqual([
				['truth', 'culprit'],
				['plot', 'act1']
			]);
			expect((await log.list(s.db, { limit: 10 })).map((m) => [m.role, m.speaker])).toEqual([
				['gm', null],
				['player', 'Aki']
			]);
			expect((await sectionRows(s)).find((r) => r.ref === 'm1')?.path).toBe('Memory › Mira');
		}));

	it('rejects bad lines with a clear error and writes nothing', () =>
		session(async (s) => {
			await s.write((tx) => importRecord(tx, { kind: 'story', title: 'culprit', body: 'the lord' }));
			const before = await dump(s);
			const cases: [unknown, string, RegExp][] = [
				[{ kind: 'diary', body: 'x' }, 'invalid_input', /unknown record kind "diary"; use one of state, journal/],
				[{ kind: 'journal' }, 'invalid_input', /"body" is missing/],
				[{ kind: 'journal', body: 3 }, 'invalid_input', /body must be a string/],
				[{ body: 'x' }, 'invalid_input', /"kind" is missing/],
				['not an object', 'invalid_input', /must be a JSON object like/],
				[{ kind: 'memory', body: 'x' }, 'invalid_input', /needs "title" \(the note name\)/],
				[{ kind: 'document', title: ' ', body: 'x' }, 'invalid_input', /needs "title"/],
				[{ kind: 'story', body: 'x' }, 'invalid_input', /needs "title"/],
				[{ kind: 'state', body: '{"hp": ' }, 'invalid_patch', /JSON object as text/],
				[{ kind: 'state', body: '[1, 2]' }, 'invalid_patch', /must be a JSON object/],
				[{ kind: 'log', body: 'x', role: 'narrator' }, 'invalid_input', /role must be one of player, gm, operator, system/],
				[{ kind: 'story', title: 'culprit', body: 'the priest' }, 'truth_exists', /can't be overwritten/]
			];
			for (const [line, code, message] of cases) {
				const err = await caught(() => s.write((tx) => importRecord(tx, line)));
				expect(err, JSON.stringify(line)).toMatchObject({ code });
				expect(String(err), JSON.stringify(line)).toMatch(message);
			}
			expect(await dump(s)).toEqual(before);
		}));

	it('exports a schema that parses a line on its own', () => {
		expect(v.is(ImportLineSchema, { kind: 'journal', body: 'x' })).toBe(true);
		expect(v.is(ImportLineSchema, { kind: 'note', body: 'x' })).toBe(false);
	});
});

describe('kinds', () => {
	it('declares a visibility for each of the seven kinds; only the story DB is always GM-only', () => {
		expect([...RECORD_KINDS].sort()).toEqual(Object.keys(KIND_VISIBILITY).sort());
		expect(RECORD_KINDS).toHaveLength(7);
		expect(Object.entries(KIND_VISIBILITY).filter(([, vis]) => vis !== 'player')).toEqual([
			['document', 'per-record'],
			['story', 'gm']
		]);
	});
});

import { describe, it, expect } from 'vitest';
import { journal, summaries, log } from '../../../src/lib/server/records';
import { useSessions, sectionRows, trigram, words, caught, checkFtsIntegrity } from './helpers';

const session = useSessions();

/** The functions a namespace exports. */
const functions = (ns: object) =>
	Object.entries(ns)
		.filter(([, v]) => typeof v === 'function')
		.map(([k]) => k)
		.sort();

describe('append-only kinds', () => {
	it('offer no way to change or remove what was written', () => {
		// The `…Query` functions build a SELECT for a batch: reads, like the rest; `appendQueries` is
		// `append` as INSERTs for a new session's seed batch; `appendWrite` is `append` planned for a turn's
		// one-batch commit (checked in memory, numbered up front).
		expect(functions(journal)).toEqual(['append', 'appendWrite', 'get', 'list', 'recent', 'recentQuery']);
		expect(functions(summaries)).toEqual(['append', 'latest', 'latestQuery', 'list']);
		expect(functions(log)).toEqual(['append', 'appendQueries', 'count', 'list']);
	});

	it('journal: appends, indexes `Journal › #id`, reads recent and pages forward', () =>
		session(async (s) => {
			const ids: number[] = [];
			for (const body of ['北門の衛兵と話した。', 'The party crossed the river.', '宿に泊まった。', 'Mira joined.']) {
				ids.push((await s.write((tx) => journal.append(tx, { body, ref: `j-${ids.length}` }))).id);
			}
			expect((await journal.recent(s.db, 2)).map((e) => e.body)).toEqual(['宿に泊まった。', 'Mira joined.']);
			expect((await journal.list(s.db, { afterId: ids[0], limit: 2 })).map((e) => e.id)).toEqual(ids.slice(1, 3));
			expect((await journal.get(s.db, ids[1] ?? 0)).ref).toBe('j-1');

			const rows = await sectionRows(s, 'journal');
			expect(rows.map((r) => [r.recordId, r.path, r.ref, r.gmOnly])).toEqual(ids.map((id, i) => [id, `Journal › #${id}`, `j-${i}`, false]));
			expect(await trigram(s, '北門の')).toEqual([rows[0]?.id]);
			// Its own words (the context column also holds them for its neighbours, see the words_context migration).
			expect(await words(s, '{path body} : crossing')).toEqual([rows[1]?.id]);
			await checkFtsIntegrity(s);
		}));

	it('journal: refuses empty entries and reports a missing one', () =>
		session(async (s) => {
			expect(await caught(() => s.write((tx) => journal.append(tx, { body: '  ' })))).toMatchObject({ code: 'invalid_input' });
			expect(await caught(() => journal.get(s.db, 99))).toMatchObject({ code: 'not_found' });
			expect(await journal.recent(s.db, 5)).toEqual([]);
		}));

	it('summaries: append, latest, list; indexed by their fixed headings', () =>
		session(async (s) => {
			expect(await summaries.latest(s.db)).toBeNull();
			const first = await s.write((tx) => summaries.append(tx, { body: '## 現在のシーン\n北門の前。\n## 主要 NPC\nミラ' }));
			const second = await s.write((tx) => summaries.append(tx, { body: '## 現在のシーン\n宿屋。' }));
			expect((await summaries.latest(s.db))?.id).toBe(second.id);
			expect((await summaries.list(s.db)).map((x) => x.id)).toEqual([first.id, second.id]);
			expect((await summaries.list(s.db, { afterId: first.id })).map((x) => x.id)).toEqual([second.id]);
			expect((await sectionRows(s, 'summary')).map((r) => r.path)).toEqual([
				`Summary › #${first.id} › 現在のシーン`,
				`Summary › #${first.id} › 主要 NPC`,
				`Summary › #${second.id} › 現在のシーン`
			]);
		}));

	it('log: appends every role, pages back and forward, counts, and names the speaker in the path', () =>
		session(async (s) => {
			const written = await s.write(async (tx) => [
				await log.append(tx, { role: 'player', body: '北門へ向かう', turnId: 't1' }),
				await log.append(tx, { role: 'gm', speaker: 'ミラ', body: '「門は閉まっているわ」', turnId: 't1' }),
				await log.append(tx, { role: 'operator', body: 'Checkpoint: save unrecorded facts.' }),
				await log.append(tx, { role: 'system', body: 'turn interrupted' }),
				await log.append(tx, { role: 'gm', body: '' })
			]);
			const ids = written.map((m) => m.id);
			expect(await log.count(s.db)).toBe(5);
			expect((await log.list(s.db, { limit: 2 })).map((m) => m.id)).toEqual(ids.slice(3));
			expect((await log.list(s.db, { beforeId: ids[3], limit: 2 })).map((m) => m.id)).toEqual(ids.slice(1, 3));
			expect((await log.list(s.db, { afterId: ids[0], limit: 2 })).map((m) => m.id)).toEqual(ids.slice(1, 3));
			expect((await log.list(s.db, { afterId: ids[0], beforeId: ids[4], limit: 10 })).map((m) => m.id)).toEqual(ids.slice(1, 4));

			const rows = await sectionRows(s, 'log');
			// The empty GM message is logged but has nothing to index.
			expect(rows.map((r) => r.path)).toEqual([
				`Log › player #${ids[0]}`,
				`Log › gm/ミラ #${ids[1]}`,
				`Log › operator #${ids[2]}`,
				`Log › system #${ids[3]}`
			]);
			expect(await trigram(s, '門は閉')).toEqual([rows[1]?.id]);
		}));

	it('log: refuses an unknown role', () =>
		session(async (s) => {
			const role: string = 'narrator';
			// @ts-expect-error — a caller outside TypeScript's reach.
			const err = await caught(() => s.write((tx) => log.append(tx, { role, body: 'x' })));
			expect(err).toMatchObject({ code: 'invalid_input' });
			expect(await log.count(s.db)).toBe(0);
		}));
});

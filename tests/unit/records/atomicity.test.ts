import { describe, it, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { state, journal, memory, documents, summaries, story, log } from '../../../src/lib/server/records';
import { useSessions, dump, caught, trigram, checkFtsIntegrity } from './helpers';

const session = useSessions();

describe('writes are atomic with their index', () => {
	it('a throwing write inside s.write leaves the tables, sections, FTS and queue unchanged', () =>
		session(async (s) => {
			await s.write(async (tx) => {
				await state.patch(tx, { location: 'inn' });
				await documents.create(tx, { title: 'World', body: '# Town\nquiet' });
				await memory.create(tx, { name: 'Mira', body: 'guard' });
			});
			const before = await dump(s);

			const err = await caught(() =>
				s.write(async (tx) => {
					await state.patch(tx, { location: '北門の前' });
					await journal.append(tx, { body: '北門の前で待った。' });
					await memory.edit(tx, 'Mira', '北門の衛兵');
					await documents.create(tx, { title: 'New', body: '北門の歴史' });
					await summaries.append(tx, { body: '北門の前にいる。' });
					await story.addTruth(tx, { key: 'k', body: '北門の秘密' });
					await log.append(tx, { role: 'gm', body: '北門の前です。' });
					// The index is written in the same transaction: visible through it, invisible outside it.
					const staged = await tx.all(sql`SELECT rowid FROM sections_trigram WHERE sections_trigram MATCH ${'"北門の"'}`);
					expect(staged.length).toBeGreaterThanOrEqual(7);
					expect(await trigram(s, '北門の')).toEqual([]);
					await story.addTruth(tx, { key: 'k', body: 'overwrite attempt' });
				})
			);
			expect(err).toMatchObject({ code: 'truth_exists' });
			expect(await dump(s)).toEqual(before);
			expect(await trigram(s, '北門の')).toEqual([]);
			await checkFtsIntegrity(s);
		}));

	it('reads through the transaction see staged writes; other connections do not until commit', () =>
		session(async (s) => {
			await s.write(async (tx) => {
				await journal.append(tx, { body: 'staged' });
				expect((await journal.recent(tx, 5)).map((e) => e.body)).toEqual(['staged']);
				expect(await journal.recent(s.db, 5)).toEqual([]);
			});
			expect((await journal.recent(s.db, 5)).map((e) => e.body)).toEqual(['staged']);
		}));
});

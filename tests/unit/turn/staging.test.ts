/**
 * Staging on its own: a turn's writes are kept and applied only at commit, reads see them before,
 * and a failed write or a failed commit leaves the session database as it was.
 */
import { describe, expect, it, vi } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { freshSessionPerTest } from '../../helpers/fresh-session';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import { journal, memory, RecordError } from '../../../src/lib/server/records';
import { BASE_QUERY, Staging, toBase } from '../../../src/lib/server/turn/staging';
import { insertTurn } from '../../../src/lib/server/turn/turns';

const use = freshSessionPerTest();
const bodies = async (s: SessionDb) =>
	(await s.db.select({ body: sessionSchema.journal.body }).from(sessionSchema.journal)).map((r) => r.body);

describe('Staging', () => {
	it('lets reads see staged writes while the database itself is unchanged until commit', async () => {
		await use(async (s) => {
			const staging = new Staging(s);
			const first = await staging.write((tx) => journal.append(tx, { body: 'The gate is shut.' }));
			await staging.write((tx) => journal.append(tx, { body: 'A crow watches.' }));
			expect(first.body).toBe('The gate is shut.');
			expect(staging.size).toBe(2);
			expect(await staging.read((exec) => journal.recent(exec, 5).then((rows) => rows.map((r) => r.body).sort()))).toEqual([
				'A crow watches.',
				'The gate is shut.'
			]);
			expect(await bodies(s)).toEqual([]);

			const committed = await staging.commit(async (tx) => (await journal.recent(tx, 5)).length);
			expect(committed).toBe(2);
			expect((await bodies(s)).sort()).toEqual(['A crow watches.', 'The gate is shut.']);
		});
	});

	it('does not stage a write that fails, and keeps the ones before it', async () => {
		await use(async (s) => {
			const staging = new Staging(s);
			await staging.write((tx) => memory.create(tx, { name: 'Bram', body: 'A ferryman.' }));
			await expect(staging.write((tx) => memory.create(tx, { name: 'Bram', body: 'Again.' }))).rejects.toBeInstanceOf(RecordError);
			expect(staging.size).toBe(1);
			await staging.commit(async () => undefined);
			const notes = await s.db.select({ name: sessionSchema.memoryNotes.name }).from(sessionSchema.memoryNotes);
			expect(notes.map((n) => n.name)).toEqual(['Bram']);
		});
	});

	it('writes nothing when the commit fails part-way, and notes what a commit wrote in the undo log', async () => {
		await use(async (s) => {
			const staging = new Staging(s);
			await staging.write((tx) => journal.append(tx, { body: 'Staged.' }));
			await expect(
				staging.commit(async () => {
					throw new Error('lease lost');
				})
			).rejects.toThrow('lease lost');
			expect(await bodies(s)).toEqual([]);

			const entry = await staging.commit(async (tx) => (await journal.recent(tx, 1))[0], { undoAs: 'turn-1' });
			expect(entry?.body).toBe('Staged.');
			const logged = await s.db.select().from(sessionSchema.undoLog).where(eq(sessionSchema.undoLog.turnId, 'turn-1'));
			expect(logged.map((r) => r.tbl)).toContain('journal');
			expect(await s.db.select().from(sessionSchema.undoCapture)).toEqual([]);
		});
	});

	it('stages a planned write with no transaction, numbered from the base, and commits it in the batch', async () => {
		await use(async (s) => {
			const { journal: journalTable, sections } = sessionSchema;
			await s.write((tx) => journal.append(tx, { body: 'Old.' }));
			// A deleted entry's id is not handed out again: the planned id must not take it either.
			const gone = await s.write((tx) => journal.append(tx, { body: 'Gone.' }));
			await s.write(async (tx) => {
				await tx.delete(sections).where(and(eq(sections.kind, 'journal'), eq(sections.recordId, gone.id)));
				await tx.delete(journalTable).where(eq(journalTable.id, gone.id));
			});
			const now = Date.now();
			const turn = await s.write((tx) =>
				insertTurn(tx, { kind: 'player', userId: 'u', input: 'Go on.', now, lease: { owner: 'me', expiresAt: now + 60_000 } })
			);
			const base = toBase((await s.batch([BASE_QUERY], 'read'))[0]?.rows[0]);
			expect(base.nextJournalId).toBe(gone.id + 1);

			const staging = new Staging(s, base);
			const transactions = vi.spyOn(s, 'write');
			const first = await staging.write(journal.appendWrite({ body: 'The gate is shut.' }));
			const second = await staging.write(journal.appendWrite({ body: 'A crow watches.' }));
			await expect(staging.write(journal.appendWrite({ body: '  ' }))).rejects.toBeInstanceOf(RecordError);
			// Checked and numbered in memory: no speculative transaction, nothing written yet.
			expect(transactions).not.toHaveBeenCalled();
			expect([first.id, second.id]).toEqual([gone.id + 1, gone.id + 2]);
			expect(staging.size).toBe(2);
			expect(await bodies(s)).toEqual(['Old.']);
			// A read runs the staged writes in a transaction (the table hands out the ids): it sees the same entries.
			const seen = await staging.read((exec) => journal.recent(exec, 5));
			expect(seen.map((e) => [e.id, e.body])).toEqual([
				[1, 'Old.'],
				[first.id, 'The gate is shut.'],
				[second.id, 'A crow watches.']
			]);

			const done = await staging.commitBatch(() => ({ statements: [], result: () => 'batched' }), { turnId: turn.id, owner: 'me' });
			expect(done?.value).toBe('batched');
			const rows = await s.db.select({ id: journalTable.id, body: journalTable.body }).from(journalTable).orderBy(asc(journalTable.id));
			expect(rows).toEqual([
				{ id: 1, body: 'Old.' },
				{ id: first.id, body: 'The gate is shut.' },
				{ id: second.id, body: 'A crow watches.' }
			]);
			const paths = await s.db
				.select({ recordId: sections.recordId, path: sections.path, body: sections.body })
				.from(sections)
				.where(eq(sections.kind, 'journal'))
				.orderBy(asc(sections.recordId));
			// The sections the transaction form writes for an entry: its path names the entry's id.
			expect(paths.map((p) => [p.recordId, p.body])).toEqual([
				[1, 'Old.'],
				[first.id, 'The gate is shut.'],
				[second.id, 'A crow watches.']
			]);
			expect(paths[1]?.path.replace(`#${first.id}`, '#N')).toBe(paths[0]?.path.replace('#1', '#N'));
		});
	});
});

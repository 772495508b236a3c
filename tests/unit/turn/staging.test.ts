/**
 * Staging on its own: a turn's writes are kept and applied only at commit, reads see them before,
 * and a failed write or a failed commit leaves the session database as it was.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { freshSessionPerTest } from '../../helpers/fresh-session';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import { journal, memory, RecordError } from '../../../src/lib/server/records';
import { Staging } from '../../../src/lib/server/turn/staging';

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
});

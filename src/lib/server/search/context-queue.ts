/**
 * Keeping the word index's context column current. A new play-log or journal section is indexed
 * with the sections before it as its context; the sections before it now have a new neighbour after
 * them, so the triggers of the words_context migration queue them, and this indexes them again, after the turn's
 * commit (from embedPending), in one short write transaction. Until then recall sees them with the
 * context they had: only their newest neighbour is missing.
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionDb, SessionExec } from '../db';

/** Sections refreshed per call; a turn queues two per new log section. */
export const CONTEXT_REFRESH_BATCH = 256;

const IdRow = v.object({ id: v.number() });

export async function refreshContexts(s: SessionDb, limit = CONTEXT_REFRESH_BATCH): Promise<number> {
	const queued = await queuedIds(s.db, limit);
	if (queued.length === 0) return 0;
	return s.write(async (tx) => {
		// Read again inside the transaction: another writer may have refreshed them meanwhile.
		const ids = await queuedIds(tx, limit);
		for (const id of ids) {
			await tx.run(sql`DELETE FROM sections_words WHERE rowid = ${id}`);
			await tx.run(
				sql`INSERT INTO sections_words (rowid, path, body, context) SELECT id, path, body, context FROM sections_words_source WHERE id = ${id}`
			);
		}
		if (ids.length > 0) await tx.run(sql`DELETE FROM context_queue WHERE section_id IN (${sql.join(ids, sql`, `)})`);
		return ids.length;
	});
}

async function queuedIds(exec: SessionExec, limit: number): Promise<number[]> {
	return v
		.parse(v.array(IdRow), await exec.all(sql`SELECT section_id AS id FROM context_queue ORDER BY section_id LIMIT ${limit}`))
		.map((r) => r.id);
}

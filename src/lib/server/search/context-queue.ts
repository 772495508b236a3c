/**
 * Keeping the word index's context column current. A new play-log or journal section is indexed
 * with the sections before it as its context; the sections before it now have a new neighbour after
 * them, so the triggers of the words_context migration queue them, and this indexes them again, after the turn's
 * commit (from embedPending), in one write batch. Until then recall sees them with the
 * context they had: only their newest neighbour is missing.
 */
import type { InStatement } from '@libsql/client';
import * as v from 'valibot';
import type { SessionDb } from '../db';

/** Sections refreshed per call; a turn queues two per new log section. */
export const CONTEXT_REFRESH_BATCH = 256;

const IdRow = v.object({ id: v.number() });

/** Reads the queued section ids (oldest first, at most `limit`): one statement of a read batch. */
export function contextQueueQuery(limit = CONTEXT_REFRESH_BATCH): InStatement {
	return { sql: 'SELECT section_id AS id FROM context_queue ORDER BY section_id LIMIT ?', args: [limit] };
}

export function contextQueueIds(rows: readonly unknown[]): number[] {
	return v.parse(v.array(IdRow), rows).map((r) => r.id);
}

/**
 * Statements that index `ids` again with their current context and take them off the queue. Each one
 * touches only ids still queued when it runs: another writer may have refreshed them meanwhile.
 */
export function contextRefreshStatements(ids: readonly number[]): InStatement[] {
	if (ids.length === 0) return [];
	const still = `SELECT section_id FROM context_queue WHERE section_id IN (${ids.map(() => '?').join(', ')})`;
	return [
		{ sql: `DELETE FROM sections_words WHERE rowid IN (${still})`, args: [...ids] },
		{
			sql: `INSERT INTO sections_words (rowid, path, body, context) SELECT id, path, body, context FROM sections_words_source WHERE id IN (${still})`,
			args: [...ids]
		},
		{ sql: `DELETE FROM context_queue WHERE section_id IN (${still})`, args: [...ids] }
	];
}

/** Refreshes up to `limit` queued sections: one read and one write batch. Returns how many were queued. */
export async function refreshContexts(s: SessionDb, limit = CONTEXT_REFRESH_BATCH): Promise<number> {
	const [queued] = await s.batch([contextQueueQuery(limit)], 'read');
	const ids = contextQueueIds(queued?.rows ?? []);
	await s.batch(contextRefreshStatements(ids), 'write');
	return ids.length;
}

/**
 * Checkpoint hand-off summaries, append-only. A summary is written under fixed headings, so it is
 * indexed by heading (`Summary › #3 › 現在のシーン`).
 */
import { asc, desc, gt } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionExec, SessionTx } from '../db';
import { chunkMarkdown } from './chunk';
import { addSections } from './sections';
import { checkBody, checkLimit, checkRef, MAX_LIST_LIMIT } from './limits';
import { PATH_ROOT } from './paths';

const { summaries } = sessionSchema;

export type Summary = typeof summaries.$inferSelect;

export interface SummaryInput {
	readonly body: string;
	readonly ref?: string | null;
}

export async function append(tx: SessionTx, input: SummaryInput): Promise<Summary> {
	const body = checkBody(input.body, 'The summary');
	const ref = checkRef(input.ref);
	const [row] = await tx.insert(summaries).values({ body, ref, createdAt: Date.now() }).returning();
	if (!row) throw new Error('summary insert returned no row');
	await addSections(tx, { kind: 'summary', recordId: row.id, gmOnly: false, ref }, chunkMarkdown([PATH_ROOT.summary, `#${row.id}`], body));
	return row;
}

/** The newest summary, or null before the first checkpoint. */
export async function latest(exec: SessionExec): Promise<Summary | null> {
	const [row] = await latestQuery(exec);
	return row ?? null;
}

/** `latest`'s query, unrun: for a batch (at most one row). */
export function latestQuery(exec: SessionExec) {
	return exec.select().from(summaries).orderBy(desc(summaries.id)).limit(1);
}

/** Summaries after `afterId` (all when absent), oldest first. */
export async function list(exec: SessionExec, options: { afterId?: number; limit?: number } = {}): Promise<Summary[]> {
	return exec
		.select()
		.from(summaries)
		.where(options.afterId === undefined ? undefined : gt(summaries.id, options.afterId))
		.orderBy(asc(summaries.id))
		.limit(checkLimit(options.limit ?? MAX_LIST_LIMIT));
}

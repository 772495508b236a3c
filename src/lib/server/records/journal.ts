/**
 * The journal: chronological events, append-only. There is deliberately no update or delete here —
 * a wrong entry is corrected by appending a correction.
 */
import { asc, desc, eq, gt } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { PlannedWrite, SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkPlain } from './chunk';
import { addSections, addSectionsQueries } from './sections';
import { checkBody, checkLimit, checkRef } from './limits';
import { PATH_ROOT } from './paths';
import * as witnesses from './witnesses';

const { journal } = sessionSchema;

export type JournalEntry = typeof journal.$inferSelect;

export interface JournalInput {
	readonly body: string;
	readonly ref?: string | null;
	/** The characters who saw it happen (those on the stage). */
	readonly witnesses?: readonly string[];
}

export async function append(tx: SessionTx, input: JournalInput): Promise<JournalEntry> {
	const body = checkBody(input.body, 'The journal entry');
	const ref = checkRef(input.ref);
	const [row] = await tx.insert(journal).values({ body, ref, createdAt: Date.now() }).returning();
	if (!row) throw new Error('journal insert returned no row');
	await addSections(tx, { kind: 'journal', recordId: row.id, gmOnly: false, ref }, sectionsOf(row));
	await witnesses.set(tx, 'journal', row.id, input.witnesses ?? []);
	return row;
}

/**
 * `append` as a planned write: it reads nothing, so with the id the entry gets its statements are known
 * and a GM turn stages it without a round trip (turn/staging.ts). Same checks, same rows.
 */
export function appendWrite(input: JournalInput): PlannedWrite<JournalEntry> {
	return {
		table: 'journal',
		plan(db, id) {
			const row: JournalEntry = { id, body: checkBody(input.body, 'The journal entry'), ref: checkRef(input.ref), createdAt: Date.now() };
			return {
				queries: [
					db.insert(journal).values(row),
					...addSectionsQueries(db, { kind: 'journal', recordId: id, gmOnly: false, ref: row.ref }, sectionsOf(row)),
					...witnesses.addQueries(db, 'journal', id, input.witnesses ?? [])
				],
				result: row
			};
		},
		run: (tx) => append(tx, input)
	};
}

function sectionsOf(row: Pick<JournalEntry, 'id' | 'body'>) {
	return chunkPlain([PATH_ROOT.journal, `#${row.id}`], row.body);
}

export async function get(exec: SessionExec, id: number): Promise<JournalEntry> {
	const [row] = await exec.select().from(journal).where(eq(journal.id, id));
	if (!row) throw new RecordError('not_found', `There is no journal entry #${id}.`);
	return row;
}

/** The latest `n` entries, oldest first (the order they are read in). */
export async function recent(exec: SessionExec, n: number): Promise<JournalEntry[]> {
	const rows = await recentQuery(exec, n);
	return rows.reverse();
}

/** `recent`'s query, unrun: for a batch (newest first; reverse it). */
export function recentQuery(exec: SessionExec, n: number) {
	return exec.select().from(journal).orderBy(desc(journal.id)).limit(checkLimit(n));
}

/** Entries after `afterId` (all when absent), oldest first, at most `limit`. */
export async function list(exec: SessionExec, options: { afterId?: number; limit: number }): Promise<JournalEntry[]> {
	return exec
		.select()
		.from(journal)
		.where(options.afterId === undefined ? undefined : gt(journal.id, options.afterId))
		.orderBy(asc(journal.id))
		.limit(checkLimit(options.limit));
}

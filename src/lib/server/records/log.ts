/**
 * The play log: every message of the conversation, append-only. The conversation is a cache; this
 * is what it was a cache of, and what the backlog replays.
 */
import { and, asc, count as countRows, desc, gt, lt } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkPlain } from './chunk';
import { addSections, addSectionsQueries, type SectionOwner } from './sections';
import { checkBody, checkLimit, checkName, checkRef, MAX_NAME_CHARS } from './limits';
import { PATH_ROOT } from './paths';
import * as witnesses from './witnesses';
import { LOG_ROLES, type LogRole } from '../../adv';

const { logMessages } = sessionSchema;

/** The roles are the play log's wire shape, spelled once in `$lib/adv` (the browser reads them too). */
export { LOG_ROLES, type LogRole };
export type LogMessage = typeof logMessages.$inferSelect;

export interface LogInput {
	readonly role: LogRole;
	readonly speaker?: string | null;
	/** May be empty: a GM reply that only called tools still has its place in the log. */
	readonly body: string;
	readonly turnId?: string | null;
	readonly ref?: string | null;
	/** The characters on the stage while it was said. */
	readonly witnesses?: readonly string[];
}

function isLogRole(value: string): value is LogRole {
	return LOG_ROLES.some((r) => r === value);
}

export async function append(tx: SessionTx, input: LogInput): Promise<LogMessage> {
	const [row] = await tx.insert(logMessages).values(newRow(input, Date.now())).returning();
	if (!row) throw new Error('log insert returned no row');
	await addSections(tx, sectionOwner(row), sectionsOf(row));
	await witnesses.set(tx, 'log', row.id, input.witnesses ?? []);
	return row;
}

/**
 * `append` as queries for a batch, under an id the caller hands out: the message under `id` and its
 * sections, whose paths carry that id. A new session's prologue (a database whose ids the seed hands
 * out), and a player turn's one-batch commit (turn/commit-batch.ts), whose guard (db/record-revision.ts)
 * and the primary key make sure `id` is the one the table would hand out next.
 */
export function appendQueries(db: Pick<SessionDrizzle, 'insert'>, id: number, input: LogInput, now: number) {
	const row = { id, ...newRow(input, now) };
	return [
		db.insert(logMessages).values(row),
		...addSectionsQueries(db, sectionOwner(row), sectionsOf(row)),
		...witnesses.addQueries(db, 'log', id, input.witnesses ?? [])
	];
}

function newRow(input: LogInput, now: number) {
	if (!isLogRole(input.role))
		throw new RecordError('invalid_input', `Unknown log role "${String(input.role)}"; use one of ${LOG_ROLES.join(', ')}.`);
	const body = checkBody(input.body, 'The log message', true);
	const speaker = input.speaker ? checkName(input.speaker, 'The speaker') : null;
	const turnId = input.turnId ?? null;
	if (turnId !== null && turnId.length > MAX_NAME_CHARS) throw new RecordError('invalid_input', 'turnId is too long.');
	const ref = checkRef(input.ref);
	return { role: input.role, speaker, body, turnId, ref, createdAt: now };
}

function sectionOwner(row: Pick<LogMessage, 'id' | 'ref'>): SectionOwner {
	return { kind: 'log', recordId: row.id, gmOnly: false, ref: row.ref };
}

function sectionsOf(row: Pick<LogMessage, 'id' | 'role' | 'speaker' | 'body'>) {
	const who = row.speaker ? `${row.role}/${row.speaker}` : row.role;
	return chunkPlain([PATH_ROOT.log, `${who} #${row.id}`], row.body);
}

export interface LogListOptions {
	/** Only messages with a smaller id (paging back through the backlog). */
	readonly beforeId?: number;
	/** Only messages with a larger id (catching up). */
	readonly afterId?: number;
	readonly limit: number;
}

/**
 * Messages oldest first. With only `afterId`, the first `limit` after it; otherwise the last `limit`
 * before `beforeId` (or the end), so paging back shows the messages nearest the cursor.
 */
export async function list(exec: SessionExec, options: LogListOptions): Promise<LogMessage[]> {
	const limit = checkLimit(options.limit);
	const where = and(
		options.afterId === undefined ? undefined : gt(logMessages.id, options.afterId),
		options.beforeId === undefined ? undefined : lt(logMessages.id, options.beforeId)
	);
	if (options.afterId !== undefined && options.beforeId === undefined) {
		return exec.select().from(logMessages).where(where).orderBy(asc(logMessages.id)).limit(limit);
	}
	const rows = await exec.select().from(logMessages).where(where).orderBy(desc(logMessages.id)).limit(limit);
	return rows.reverse();
}

export async function count(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ n: countRows() }).from(logMessages);
	return row?.n ?? 0;
}

/**
 * The play log: every message of the conversation, append-only. The conversation is a cache; this
 * is what it was a cache of, and what the backlog replays.
 */
import { and, asc, count as countRows, desc, gt, lt } from 'drizzle-orm';
import { logMessages } from '../db/session-schema';
import type { SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkPlain } from './chunk';
import { addSections, addSectionsQueries } from './sections';
import { checkBody, checkLimit, checkName, checkRef, MAX_NAME_CHARS } from './limits';
import { PATH_ROOT } from './paths';
import { LOG_ROLES, type LogRole } from '../../adv';

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
}

function isLogRole(value: string): value is LogRole {
	return LOG_ROLES.some((r) => r === value);
}

export async function append(tx: SessionTx, input: LogInput): Promise<LogMessage> {
	const message = checked(input);
	const [row] = await tx.insert(logMessages).values(message.values).returning();
	if (!row) throw new Error('log insert returned no row');
	await addSections(tx, message.owner(row.id), message.sections(row.id));
	return row;
}

/**
 * `append`'s writes under an id chosen beforehand, unrun: for a write batch that needs the id in its
 * other statements (turn/commit-batch.ts). The id must be the one the table would hand out next; the
 * batch's guard (db/record-revision.ts) and the primary key make sure it is.
 */
export function appendQueries(exec: Pick<SessionExec, 'insert'>, input: LogInput, id: number) {
	const message = checked(input);
	return [exec.insert(logMessages).values({ ...message.values, id }), ...addSectionsQueries(exec, message.owner(id), message.sections(id))];
}

/** The checked row of a new message, and its sections once its id is known. */
function checked(input: LogInput) {
	if (!isLogRole(input.role))
		throw new RecordError('invalid_input', `Unknown log role "${String(input.role)}"; use one of ${LOG_ROLES.join(', ')}.`);
	const body = checkBody(input.body, 'The log message', true);
	const speaker = input.speaker ? checkName(input.speaker, 'The speaker') : null;
	const turnId = input.turnId ?? null;
	if (turnId !== null && turnId.length > MAX_NAME_CHARS) throw new RecordError('invalid_input', 'turnId is too long.');
	const ref = checkRef(input.ref);
	const who = speaker ? `${input.role}/${speaker}` : input.role;
	return {
		values: { role: input.role, speaker, body, turnId, ref, createdAt: Date.now() },
		owner: (id: number) => ({ kind: 'log' as const, recordId: id, gmOnly: false, ref }),
		sections: (id: number) => chunkPlain([PATH_ROOT.log, `${who} #${id}`], body)
	};
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

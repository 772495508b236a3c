/**
 * Which play sessions may have unfinished turns, kept in the control database so that a server
 * starting up (after a crash, too) finds them without opening every session's database: it resumes
 * their accepted turns and marks the turns of runners that died as interrupted.
 *
 * A row is written with the daily quota when a turn is accepted (one durable commit for both) and
 * removed by the runner once the session has nothing left. The quota is taken before the turn is
 * inserted, so a runner finishing the session's previous turn at that moment may look before the
 * new turn exists: rows younger than ACCEPT_WINDOW_MS are therefore kept and looked at again later.
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';

const { sessionWork } = controlSchema;

/** Far longer than an accept takes between taking the quota and inserting its turn. */
export const ACCEPT_WINDOW_MS = 5_000;

/**
 * Notes that the session has a turn queued, if the statement just before it in the same batch
 * changed a row (the quota was taken): for `takeTurnQuota`'s `alongside`.
 */
export function markWorkIfTaken(db: ControlDrizzle, sessionId: string, now: number) {
	return db.run(sql`insert into ${sessionWork} (${sql.identifier(sessionWork.sessionId.name)}, ${sql.identifier(sessionWork.since.name)})
		select ${sessionId}, ${now} where changes() > 0
		on conflict (${sql.identifier(sessionWork.sessionId.name)})
		do update set ${sql.identifier(sessionWork.since.name)} = excluded.${sql.identifier(sessionWork.since.name)}`);
}

/** Notes that the session has a turn running or queued (a checkpoint, a model switch's hand-off). */
export async function markWork(db: ControlDrizzle, sessionId: string, now: number): Promise<void> {
	await db
		.insert(sessionWork)
		.values({ sessionId, since: now })
		.onConflictDoUpdate({ target: sessionWork.sessionId, set: { since: now } });
}

/**
 * Forgets a session its runner found idle at `checkedAt`. Returns when to look again if the row is
 * too young to be trusted (see ACCEPT_WINDOW_MS), undefined when it was removed or never there.
 */
export async function clearWork(db: ControlDrizzle, sessionId: string, checkedAt: number): Promise<number | undefined> {
	const [row] = await db.select({ since: sessionWork.since }).from(sessionWork).where(eq(sessionWork.sessionId, sessionId));
	if (!row) return undefined;
	if (row.since > checkedAt - ACCEPT_WINDOW_MS) return row.since + ACCEPT_WINDOW_MS;
	await db.delete(sessionWork).where(eq(sessionWork.sessionId, sessionId));
	return undefined;
}

/** Forgets a session whose database is gone (deleted while noted as having work): nothing is left to run there. */
export async function forgetWork(db: ControlDrizzle, sessionId: string): Promise<void> {
	await db.delete(sessionWork).where(eq(sessionWork.sessionId, sessionId));
}

/**
 * When a note written at `acceptedAt` (a player turn's accept, whose quota batch wrote it with the
 * turn's own creation time) stops being too young to drop, if it still is at `checkedAt`: what
 * `clearWork` would answer for it, known without reading it. A later accept only makes the note younger,
 * and clearWork, run then, says so.
 */
export function youngNoteUntil(acceptedAt: number | undefined, checkedAt: number): number | undefined {
	return acceptedAt !== undefined && acceptedAt > checkedAt - ACCEPT_WINDOW_MS ? acceptedAt + ACCEPT_WINDOW_MS : undefined;
}

/**
 * Whether the session's note is old enough to be looked at (ACCEPT_WINDOW_MS): a runner that finds the
 * session idle drops it then. A younger note has a runner's wake-up coming; none is looked at for nothing.
 */
export async function hasOldNote(db: ControlDrizzle, sessionId: string, now: number): Promise<boolean> {
	const [row] = await db
		.select({ since: sessionWork.since })
		.from(sessionWork)
		.where(and(eq(sessionWork.sessionId, sessionId), lte(sessionWork.since, now - ACCEPT_WINDOW_MS)));
	return row !== undefined;
}

export async function sessionsWithWork(db: ControlDrizzle): Promise<string[]> {
	const rows = await db.select({ id: sessionWork.sessionId }).from(sessionWork);
	return rows.map((r) => r.id);
}

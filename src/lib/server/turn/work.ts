/**
 * Which play sessions may have unfinished turns, kept in the control database so that a server
 * starting up (after a crash, too) finds them without opening every session's database: it resumes
 * their accepted turns and marks the turns of runners that died as interrupted.
 */
import { and, eq, lt } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';

const { sessionWork } = controlSchema;

/** Notes that the session has a turn queued or running. */
export async function markWork(db: ControlDrizzle, sessionId: string, now: number): Promise<void> {
	await db.insert(sessionWork).values({ sessionId, since: now }).onConflictDoUpdate({ target: sessionWork.sessionId, set: { since: now } });
}

/**
 * Forgets the session once its runner found nothing left, unless work was noted again since the
 * runner looked (`checkedAt`): a turn accepted meanwhile keeps its row.
 */
export async function clearWork(db: ControlDrizzle, sessionId: string, checkedAt: number): Promise<void> {
	await db.delete(sessionWork).where(and(eq(sessionWork.sessionId, sessionId), lt(sessionWork.since, checkedAt)));
}

export async function sessionsWithWork(db: ControlDrizzle): Promise<string[]> {
	const rows = await db.select({ id: sessionWork.sessionId }).from(sessionWork);
	return rows.map((r) => r.id);
}

/**
 * What the canon guard did, for the operator (issue 27): over all sessions, the replies it had written again
 * and the turns it stopped, and the sessions where it acted most. Counted since each session began (the
 * counters have no day), so it stands beside the usage report's date range, not inside it.
 */
import { desc, eq, or, gt, sum } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';

const { usageSession, playSessions, users } = controlSchema;

/** Sessions listed: the ones where the guard acted most. */
const LISTED_SESSIONS = 20;

export interface CanonGuardReport {
	rewrites: number;
	stopped: number;
	/** Stopped turns first, then rewrites; a session deleted since is left out of the list (not of the totals). */
	sessions: Array<{ sessionId: string; title: string; owner: string; rewrites: number; stopped: number }>;
}

export async function canonGuardReport(db: ControlDrizzle): Promise<CanonGuardReport> {
	const acted = or(gt(usageSession.canonRewrites, 0), gt(usageSession.canonStopped, 0));
	const [totals] = await db
		.select({ rewrites: sum(usageSession.canonRewrites), stopped: sum(usageSession.canonStopped) })
		.from(usageSession)
		.where(acted);
	const sessions = await db
		.select({
			sessionId: usageSession.sessionId,
			title: playSessions.title,
			owner: users.name,
			rewrites: usageSession.canonRewrites,
			stopped: usageSession.canonStopped
		})
		.from(usageSession)
		.innerJoin(playSessions, eq(playSessions.id, usageSession.sessionId))
		.innerJoin(users, eq(users.id, playSessions.ownerId))
		.where(acted)
		.orderBy(desc(usageSession.canonStopped), desc(usageSession.canonRewrites), usageSession.sessionId)
		.limit(LISTED_SESSIONS);
	return { rewrites: Number(totals?.rewrites ?? 0), stopped: Number(totals?.stopped ?? 0), sessions };
}

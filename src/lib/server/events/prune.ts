/**
 * Pruning the session's event log: streaming events of finished turns are dropped once late clients
 * no longer need them.
 */
import { and, inArray, lt, notInArray } from 'drizzle-orm';
import { sessionSchema, type SessionExec } from '../db';

const { events, turns } = sessionSchema;

/** Finished turns keep their streaming events this long, for clients that resume late. */
export const DELTA_RETENTION_MS = 10 * 60_000;

/** Streaming events are pruned on every this-many-th commit, not on each: the work is batched. */
export const PRUNE_EVERY_COMMITS = 50;

/**
 * A finished turn's text deltas are redundant once its final event (carrying the whole reply)
 * exists; dropping them after DELTA_RETENTION_MS keeps the log small over thousands of turns while
 * a client that reconnects mid-turn, or shortly after, still finds every event it missed.
 */
export async function pruneStreamingEvents(exec: SessionExec, finishedBefore: number): Promise<number> {
	const rows = await exec
		.delete(events)
		.where(
			and(
				inArray(events.type, ['text.delta', 'tool.activity', 'stage.staged']),
				inArray(
					events.turnId,
					exec
						.select({ id: turns.id })
						.from(turns)
						.where(and(lt(turns.finishedAt, finishedBefore), notInArray(turns.status, ['accepted', 'running'])))
				)
			)
		)
		.returning({ id: events.id });
	return rows.length;
}

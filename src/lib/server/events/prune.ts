/**
 * Pruning the session's event log: streaming events of finished turns are dropped once late clients
 * no longer need them.
 */
import { and, inArray, type SQLWrapper } from 'drizzle-orm';
import { sessionSchema, type SessionExec } from '../db';

const { events } = sessionSchema;

/** Events that are only for following a turn live. */
const STREAMING_EVENTS = ['text.delta', 'text.withdrawn', 'tool.activity', 'stage.staged'];

/** Finished turns keep their streaming events this long, for clients that resume late. */
export const DELTA_RETENTION_MS = 10 * 60_000;

/** Streaming events are pruned on every this-many-th commit, not on each: the work is batched. */
export const PRUNE_EVERY_COMMITS = 50;

/**
 * A finished turn's text deltas are redundant once its final event (carrying the whole reply)
 * exists; dropping them after DELTA_RETENTION_MS keeps the log small over thousands of turns while
 * a client that reconnects mid-turn, or shortly after, still finds every event it missed. `finished`
 * selects the ids of the turns finished before the cutoff (the turns repository's `finishedBeforeQuery`):
 * the log knows events by turn id, not what a turn is.
 */
export async function pruneStreamingEvents(exec: SessionExec, finished: SQLWrapper): Promise<number> {
	const rows = await pruneStreamingEventsQuery(exec, finished);
	return rows.length;
}

/** `pruneStreamingEvents`' delete, unrun: for a write batch. */
export function pruneStreamingEventsQuery(exec: Pick<SessionExec, 'delete'>, finished: SQLWrapper) {
	return dropStreamingEventsQuery(exec, finished).returning({ id: events.id });
}

/** Deletes the streaming events of the turns `turnIds` lists (or selects), unrun: an undone turn's go with it. */
export function dropStreamingEventsQuery(exec: Pick<SessionExec, 'delete'>, turnIds: SQLWrapper | readonly string[]) {
	return exec.delete(events).where(and(inArray(events.type, STREAMING_EVENTS), inArray(events.turnId, turnIds)));
}

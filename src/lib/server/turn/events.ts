/**
 * The session's event log: every event a client may need is a row with a strictly increasing id,
 * which is the SSE id. A client that reconnects with Last-Event-ID reads the rows after it, so no
 * event is lost or repeated. Listeners in this process are woken by the EventBus; other processes
 * are caught by the SSE endpoint's slow poll.
 */
import { and, asc, gt, inArray, lt, max, notInArray } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec } from '../db';
import { parseSessionEvent, type LoggedEvent, type SessionEvent } from '../../types/events';

const { events, turns } = sessionSchema;

function eventRow(event: SessionEvent) {
	return { turnId: 'turnId' in event ? event.turnId : null, type: event.type, data: JSON.stringify(event), createdAt: Date.now() };
}

/** Appending `events`, as a query for a write batch (`SessionDb.writes`): one round trip with whatever else it carries. */
export function appendEventsQuery(w: Pick<SessionDb['writes'], 'insert'>, event: SessionEvent, ...more: SessionEvent[]) {
	return w.insert(events).values([event, ...more].map(eventRow));
}

export async function appendEvent(exec: SessionExec, event: SessionEvent): Promise<number> {
	const [row] = await exec.insert(events).values(eventRow(event)).returning({ id: events.id });
	if (!row) throw new Error('event insert returned no id');
	return row.id;
}

function decode(row: { id: number; data: string }): LoggedEvent | undefined {
	// Our own rows; the check guards against a hand-edited or older database, not against attackers.
	const event = parseSessionEvent(row.data);
	if (event) return { id: row.id, event };
	console.warn(`[kantera] event ${row.id} of the session log is not a known event; it is not sent`);
	return undefined;
}

/** Events after `afterId`, oldest first. */
export async function readEventsAfter(exec: SessionExec, afterId: number, limit = 500): Promise<LoggedEvent[]> {
	const rows = await exec
		.select({ id: events.id, data: events.data })
		.from(events)
		.where(gt(events.id, afterId))
		.orderBy(asc(events.id))
		.limit(limit);
	return rows.map(decode).filter((e): e is LoggedEvent => e !== undefined);
}

export async function lastEventId(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ id: max(events.id) }).from(events);
	return row?.id ?? 0;
}

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
	const rows = await pruneStreamingEventsQuery(exec, finishedBefore);
	return rows.length;
}

/** `pruneStreamingEvents`' delete, unrun: for a write batch. */
export function pruneStreamingEventsQuery(exec: Pick<SessionExec, 'delete' | 'select'>, finishedBefore: number) {
	return exec
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
}

type Listener = () => void;

/** Wakes SSE streams in this process when their session's log grows. A process resource, not request state. */
export class EventBus {
	private readonly listeners = new Map<string, Set<Listener>>();

	subscribe(sessionId: string, listener: Listener): () => void {
		let set = this.listeners.get(sessionId);
		if (!set) {
			set = new Set();
			this.listeners.set(sessionId, set);
		}
		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0) this.listeners.delete(sessionId);
		};
	}

	notify(sessionId: string): void {
		for (const l of this.listeners.get(sessionId) ?? []) l();
	}

	listenerCount(sessionId: string): number {
		return this.listeners.get(sessionId)?.size ?? 0;
	}
}

/**
 * The session's event log: every event a client may need is a row with a strictly increasing id,
 * which is the SSE id. A client that reconnects with Last-Event-ID reads the rows after it, so no
 * event is lost or repeated. Listeners in this process are woken by the EventBus (`bus.ts`); writes by
 * other processes are found by the session's shared slow poll (`feed.ts`).
 */
import { asc, gt, max } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec } from '../db';
import { parseSessionEvent, type LoggedEvent, type SessionEvent } from '../../types/events';

const { events } = sessionSchema;

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
	return (await readLogAfter(exec, afterId, limit)).events;
}

/** A page of the log: its events, and the id of the last row read (`afterId` when none), unknown rows included. */
export interface LogPage {
	events: LoggedEvent[];
	last: number;
	/** The page was full: more rows may follow `last`. */
	more: boolean;
}

/**
 * The rows after `afterId`, oldest first, at most `limit`. `last` lets a reader move past a row it
 * cannot send (an unknown event) instead of reading it again on every wake-up.
 */
export async function readLogAfter(exec: SessionExec, afterId: number, limit: number): Promise<LogPage> {
	const rows = await exec
		.select({ id: events.id, data: events.data })
		.from(events)
		.where(gt(events.id, afterId))
		.orderBy(asc(events.id))
		.limit(limit);
	return {
		events: rows.map(decode).filter((e): e is LoggedEvent => e !== undefined),
		last: rows.at(-1)?.id ?? afterId,
		more: rows.length === limit
	};
}

export async function lastEventId(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ id: max(events.id) }).from(events);
	return row?.id ?? 0;
}

/**
 * The session's event log: every event a client may need is a row with a strictly increasing id,
 * which is the SSE id. A client that reconnects with Last-Event-ID reads the rows after it, so no
 * event is lost or repeated. Listeners in this process are woken by the EventBus (`bus.ts`); writes by
 * other processes are found by the session's shared slow poll (`feed.ts`).
 */
import { and, asc, eq, gt, inArray, lte, max, sql, type SQL } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec } from '../db';
import { parseSessionEvent, type LoggedEvent, type SessionEvent } from '../../types/events';

const { events } = sessionSchema;

type Runs = Pick<SessionDb['writes'], 'run'>;

function eventRow(event: SessionEvent, createdAt = Date.now()) {
	return { turnId: 'turnId' in event ? event.turnId : null, type: event.type, data: JSON.stringify(event), createdAt };
}

/** Appending `events`, as a query for a write batch (`SessionDb.writes`): one round trip with whatever else it carries. */
export function appendEventsQuery(w: Pick<SessionDb['writes'], 'insert'>, event: SessionEvent, ...more: SessionEvent[]) {
	return w.insert(events).values([event, ...more].map(eventRow));
}

/** `event`, as a write batch statement that appends it only if `condition` (an SQL expression) holds as it runs. */
export function appendEventIfQuery(w: Runs, event: SessionEvent, now: number, condition: SQL) {
	const row = eventRow(event, now);
	return w.run(sql`INSERT INTO events (turn_id, type, data, created_at) SELECT ${row.turnId}, ${row.type}, ${row.data}, ${row.createdAt}
		WHERE ${condition}`);
}

/**
 * One event of `type` for each turn a query selects, with the JSON `appendEvent` writes, as a write batch
 * statement: `turns` is the rest of that query (`FROM … WHERE … ORDER BY …`, from the turns repository), whose
 * rows have the turn's `id`. A batch's turn updates get their events without reading the turns first.
 */
export function appendTurnEventsQuery(w: Runs, type: 'turn.interrupted' | 'turn.started', now: number, turns: SQL) {
	return w.run(sql`INSERT INTO events (turn_id, type, data, created_at)
		SELECT id, ${type}, json_object('type', ${type}, 'turnId', id), ${now} ${turns}`);
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

type StreamedEvent = Extract<SessionEvent, { type: 'text.delta' | 'text.withdrawn' | 'stage.staged' }>;
const STREAMED_TYPES: readonly StreamedEvent['type'][] = ['text.delta', 'text.withdrawn', 'stage.staged'];

/**
 * What turn `turnId` streamed up to event `through` (its text deltas, withdrawals and staged stage
 * directions), oldest first.
 */
export async function streamedThrough(exec: SessionExec, turnId: string, through: number): Promise<StreamedEvent[]> {
	const rows = await exec
		.select({ data: events.data })
		.from(events)
		.where(and(eq(events.turnId, turnId), inArray(events.type, [...STREAMED_TYPES]), lte(events.id, through)))
		.orderBy(asc(events.id));
	return rows
		.map((row) => parseSessionEvent(row.data))
		.filter((event): event is StreamedEvent => event !== null && STREAMED_TYPES.some((t) => t === event.type));
}

export async function lastEventId(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ id: max(events.id) }).from(events);
	return row?.id ?? 0;
}

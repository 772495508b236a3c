/**
 * Reservations make the scopes that other turns share (the session, the user's day, the server's
 * month) hold under concurrency, in this process and in others on the same control database.
 *
 * Before a call, its worst-case cost is reserved in ONE write transaction that also checks every
 * limit against what is spent plus what is already reserved; after the call the reservation is
 * replaced by the real cost (or released when nothing was used). Each step also comes as a batch part
 * (`reservePart`, `settlePart`, `releasePart`), so a turn sends the settle of one call and the
 * reservation of the next in one round trip. A call starts only while
 * `spent + reserved < limit`, so at most one call per scope crosses its limit, whatever the number of
 * turns or processes racing for it.
 */
import * as v from 'valibot';
import { eq, lt, sql, type SQL } from 'drizzle-orm';
import { controlSchema, newId, type ControlDrizzle } from '../db';
import { sleep } from '../retry';
import { BudgetExceededError, type ScopeName } from './guard';
import { callCounts, utcDay, utcMonth, type MoneyLimits } from './usage';
import { callLogInsert, type CallRecord } from './calls';
import { runPart, type BatchPart } from './batch';
import { observeLlmCall } from '../ops';

const { budgetReservations, usageDaily, usageSession } = controlSchema;

/** The scopes held in the control database, shared by every turn and process. */
type SharedScope = Extract<ScopeName, 'session' | 'user_day' | 'global_month'>;

export interface SharedLimits {
	session: MoneyLimits;
	userDay: MoneyLimits;
	globalMonth: MoneyLimits;
}

export interface Payer {
	userId: string;
	sessionId: string;
}

/** Spent (settled) totals of the shared scopes that have a limit or a warning. */
type SharedTotals = Partial<Record<SharedScope, number>>;

export type Reservation =
	| { ok: true; id: string | undefined; totals: SharedTotals }
	/** `final`: the settled spending alone reached the limit; otherwise calls in flight hold the rest. */
	| { ok: false; exceeded: BudgetExceededError; final: boolean };

/** How often a call blocked only by other calls' reservations looks again. */
const RESERVATION_RETRY_MS = 200;

/** One shared scope: its limits, and SQL for what was spent and what is reserved in it. */
interface ScopeQuery {
	scope: SharedScope;
	limits: MoneyLimits;
	settled: SQL;
	reserved: SQL;
}

function scopeQueries(payer: Payer, limits: SharedLimits, day: string, month: string): ScopeQuery[] {
	const [from, to] = [`${month}-01`, `${month}-31`];
	const r = budgetReservations;
	const all: ScopeQuery[] = [
		{
			scope: 'session',
			limits: limits.session,
			settled: sql`coalesce((select ${usageSession.costMicros} from ${usageSession} where ${usageSession.sessionId} = ${payer.sessionId}), 0)`,
			reserved: sql`(select coalesce(sum(${r.micros}), 0) from ${r} where ${r.sessionId} = ${payer.sessionId})`
		},
		{
			scope: 'user_day',
			limits: limits.userDay,
			settled: sql`coalesce((select ${usageDaily.costMicros} from ${usageDaily} where ${usageDaily.userId} = ${payer.userId} and ${usageDaily.day} = ${day}), 0)`,
			reserved: sql`(select coalesce(sum(${r.micros}), 0) from ${r} where ${r.userId} = ${payer.userId} and ${r.day} = ${day})`
		},
		{
			scope: 'global_month',
			limits: limits.globalMonth,
			settled: sql`(select coalesce(sum(${usageDaily.costMicros}), 0) from ${usageDaily} where ${usageDaily.day} between ${from} and ${to})`,
			reserved: sql`(select coalesce(sum(${r.micros}), 0) from ${r} where ${r.day} between ${from} and ${to})`
		}
	];
	return all.filter((q) => applies(q.limits));
}

const applies = (l: MoneyLimits) => l.limit !== undefined || l.warnAt !== undefined;

/** Whether any shared scope has a limit or a warning: without one, a call has nothing to reserve. */
export function sharedScopesApply(limits: SharedLimits): boolean {
	return applies(limits.session) || applies(limits.userDay) || applies(limits.globalMonth);
}

const TotalsRow = v.record(v.string(), v.union([v.number(), v.null()]));
const RunResult = v.object({ rowsAffected: v.number() });

/** No shared scope has a limit or a warning: nothing is reserved, nothing is written. */
const NOTHING_RESERVED: Reservation = { ok: true, id: undefined, totals: {} };

/**
 * The statements that check the limits and reserve `micros`, atomically: in one batch (a single write
 * transaction that runs without yielding, so it never holds the database locked while other work waits
 * on it) they drop expired reservations, insert this one only if every limited scope has
 * `spent + reserved < limit`, and read the totals back. Undefined when no shared scope has a limit or
 * a warning (nothing to reserve). `micros` may be SQL (e.g. it depends on the user's tier, read in the
 * same statement); when it is NULL nothing is reserved.
 */
export function reservePart(
	db: ControlDrizzle,
	payer: Payer,
	limits: SharedLimits,
	micros: number | SQL,
	now: number,
	ttlMs: number
): BatchPart<Reservation> | undefined {
	const day = utcDay(now);
	const queries = scopeQueries(payer, limits, day, utcMonth(now));
	if (queries.length === 0) return undefined;
	const id = newId();
	const limited = queries.filter((q) => q.limits.limit !== undefined);
	const room = sql.join(
		[sql`${micros} is not null`, ...limited.map((q) => sql`(${q.settled} + ${q.reserved}) < ${q.limits.limit}`)],
		sql` and `
	);
	const r = budgetReservations;
	return {
		items: [
			db.delete(r).where(lt(r.expiresAt, now)),
			db.run(sql`insert into ${r} (${sql.identifier(r.id.name)}, ${sql.identifier(r.userId.name)}, ${sql.identifier(r.sessionId.name)},
				${sql.identifier(r.day.name)}, ${sql.identifier(r.micros.name)}, ${sql.identifier(r.expiresAt.name)})
			select ${id}, ${payer.userId}, ${payer.sessionId}, ${day}, ${micros}, ${now + ttlMs} where ${room}`),
			db.all(
				sql`select ${sql.join(
					queries.map(
						(q) => sql`${q.settled} as ${sql.identifier(`${q.scope}_settled`)}, ${q.reserved} as ${sql.identifier(`${q.scope}_reserved`)}`
					),
					sql`, `
				)}`
			)
		],
		read: ([, inserted, totals]) => readReservation(id, queries, v.parse(RunResult, inserted).rowsAffected > 0, totals)
	};
}

function readReservation(id: string, queries: readonly ScopeQuery[], inserted: boolean, totals: unknown): Reservation {
	const [row] = v.parse(v.array(TotalsRow), totals);
	const read = (key: string) => Number(row?.[key] ?? 0);
	const spent: SharedTotals = {};
	for (const q of queries) spent[q.scope] = read(`${q.scope}_settled`);
	if (inserted) return { ok: true, id, totals: spent };
	const limited = queries.filter((q) => q.limits.limit !== undefined);
	for (const q of limited) {
		const limit = q.limits.limit ?? 0;
		const settled = read(`${q.scope}_settled`);
		const held = settled + read(`${q.scope}_reserved`);
		if (settled >= limit) return { ok: false, exceeded: new BudgetExceededError(q.scope, 'micros', settled, limit), final: true };
		if (held >= limit) return { ok: false, exceeded: new BudgetExceededError(q.scope, 'micros', held, limit), final: false };
	}
	// Not reached with an amount (the insert's condition and this read see the same transaction); a retry is the safe answer.
	return {
		ok: false,
		exceeded: new BudgetExceededError(limited[0]?.scope ?? 'user_day', 'micros', 0, limited[0]?.limits.limit ?? 0),
		final: false
	};
}

/** Checks the limits and reserves `micros` (see `reservePart`), as a batch of its own. */
export async function reserve(
	db: ControlDrizzle,
	payer: Payer,
	limits: SharedLimits,
	micros: number,
	now: number,
	ttlMs: number
): Promise<Reservation> {
	const part = reservePart(db, payer, limits, micros, now, ttlMs);
	return part ? runPart(db, part) : NOTHING_RESERVED;
}

/**
 * Reserves, waiting while only other calls in flight stand in the way (they may cost less than
 * their worst case); answers at once when the settled spending reached a limit. The signal ends the
 * wait with its reason. `tried` is the outcome of an attempt the caller already made (in a batch of
 * its own): the wait starts from it.
 */
export async function reserveWhenFree(
	db: ControlDrizzle,
	payer: Payer,
	limits: SharedLimits,
	micros: number,
	opts: { now: () => number; ttlMs: number; signal: AbortSignal; tried?: Reservation }
): Promise<Reservation> {
	let r = opts.tried;
	for (;;) {
		if (r) {
			if (r.ok || r.final) return r;
			await sleep(RESERVATION_RETRY_MS, opts.signal);
		}
		opts.signal.throwIfAborted();
		r = await reserve(db, payer, limits, micros, opts.now(), opts.ttlMs);
	}
}

/**
 * The statements that replace a reservation by the call's real cost, in one transaction: the call is
 * counted against the user's day and the session (and goes into the call log), and the money set
 * aside is free again.
 */
export function settlePart(
	db: ControlDrizzle,
	reservationId: string | undefined,
	payer: Payer,
	costMicros: number,
	now: number,
	call?: CallRecord
): BatchPart<void> {
	const give = reservationId === undefined ? [] : [db.delete(budgetReservations).where(eq(budgetReservations.id, reservationId))];
	const log = call ? [callLogInsert(db, payer, call, now)] : [];
	return { items: [...give, ...callCounts(db, payer, costMicros, now), ...log], read: () => undefined };
}

/** Settles a reservation (see `settlePart`) in a batch of its own. */
export async function settle(
	db: ControlDrizzle,
	reservationId: string | undefined,
	payer: Payer,
	costMicros: number,
	now: number,
	call?: CallRecord
): Promise<void> {
	await runPart(db, settlePart(db, reservationId, payer, costMicros, now, call));
	// The metrics count what the call log holds, once it holds it.
	if (call) observeLlmCall(call);
}

/**
 * The statements that give a reservation back without counting anything: the call failed before it
 * used anything. The call still goes into the call log (as a failure). No statement when there is
 * neither a reservation nor a call to log.
 */
export function releasePart(
	db: ControlDrizzle,
	reservationId: string | undefined,
	call?: { payer: Payer; record: CallRecord; at: number }
): BatchPart<void> {
	const give = reservationId === undefined ? [] : [db.delete(budgetReservations).where(eq(budgetReservations.id, reservationId))];
	const log = call ? [callLogInsert(db, call.payer, call.record, call.at)] : [];
	return { items: [...give, ...log], read: () => undefined };
}

/** Gives a reservation back (see `releasePart`) in a batch of its own. */
export async function release(
	db: ControlDrizzle,
	reservationId: string | undefined,
	call?: { payer: Payer; record: CallRecord; at: number }
): Promise<void> {
	await runPart(db, releasePart(db, reservationId, call));
	if (call) observeLlmCall(call.record);
}

/** Money reserved and not yet settled (tests, diagnostics). */
export async function reservedMicros(db: ControlDrizzle): Promise<number> {
	const [row] = await db.select({ n: sql<number>`coalesce(sum(${budgetReservations.micros}), 0)` }).from(budgetReservations);
	return Number(row?.n ?? 0);
}

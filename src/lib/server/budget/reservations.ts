/**
 * Reservations make the scopes that other turns share (the session, the user's day, the server's
 * month) hold under concurrency, in this process and in others on the same control database.
 *
 * Before a call, its worst-case cost is reserved in ONE write transaction that also checks every
 * limit against what is spent plus what is already reserved; after the call the reservation is
 * replaced by the real cost (or released when nothing was used). A call starts only while
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
	return all.filter((q) => q.limits.limit !== undefined || q.limits.warnAt !== undefined);
}

const TotalsRow = v.record(v.string(), v.union([v.number(), v.null()]));

/**
 * Checks the limits and reserves `micros`, atomically: one batch (a single write transaction that
 * runs without yielding, so it never holds the database locked while other work waits on it) drops
 * expired reservations, inserts this one only if every limited scope has `spent + reserved < limit`,
 * and reads the totals back. With no limit and no warning on any shared scope nothing is written.
 */
export async function reserve(
	db: ControlDrizzle,
	payer: Payer,
	limits: SharedLimits,
	micros: number,
	now: number,
	ttlMs: number
): Promise<Reservation> {
	const day = utcDay(now);
	const queries = scopeQueries(payer, limits, day, utcMonth(now));
	if (queries.length === 0) return { ok: true, id: undefined, totals: {} };
	const id = newId();
	const limited = queries.filter((q) => q.limits.limit !== undefined);
	const room =
		limited.length === 0
			? sql`1`
			: sql.join(
					limited.map((q) => sql`(${q.settled} + ${q.reserved}) < ${q.limits.limit}`),
					sql` and `
				);
	const r = budgetReservations;
	const [, inserted, totals] = await db.batch([
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
	]);
	const row = v.parse(TotalsRow, totals[0] ?? {});
	const read = (key: string) => Number(row[key] ?? 0);
	const spent: SharedTotals = {};
	for (const q of queries) spent[q.scope] = read(`${q.scope}_settled`);
	if (inserted.rowsAffected > 0) return { ok: true, id, totals: spent };
	for (const q of limited) {
		const limit = q.limits.limit ?? 0;
		const settled = read(`${q.scope}_settled`);
		const held = settled + read(`${q.scope}_reserved`);
		if (settled >= limit) return { ok: false, exceeded: new BudgetExceededError(q.scope, 'micros', settled, limit), final: true };
		if (held >= limit) return { ok: false, exceeded: new BudgetExceededError(q.scope, 'micros', held, limit), final: false };
	}
	// Not reached (the insert's condition and this read see the same transaction); a retry is the safe answer.
	return {
		ok: false,
		exceeded: new BudgetExceededError(limited[0]?.scope ?? 'user_day', 'micros', 0, limited[0]?.limits.limit ?? 0),
		final: false
	};
}

/**
 * Reserves, waiting while only other calls in flight stand in the way (they may cost less than
 * their worst case); answers at once when the settled spending reached a limit. The signal ends the
 * wait with its reason.
 */
export async function reserveWhenFree(
	db: ControlDrizzle,
	payer: Payer,
	limits: SharedLimits,
	micros: number,
	opts: { now: () => number; ttlMs: number; signal: AbortSignal }
): Promise<Reservation> {
	for (;;) {
		opts.signal.throwIfAborted();
		const r = await reserve(db, payer, limits, micros, opts.now(), opts.ttlMs);
		if (r.ok || r.final) return r;
		await sleep(RESERVATION_RETRY_MS, opts.signal);
	}
}

/**
 * Replaces the reservation by the call's real cost, in one transaction: the call is counted against
 * the user's day and the session, and the money set aside is free again.
 */
export async function settle(
	db: ControlDrizzle,
	reservationId: string | undefined,
	payer: Payer,
	costMicros: number,
	now: number,
	call?: CallRecord
): Promise<void> {
	const [daily, session] = callCounts(db, payer, costMicros, now);
	const log = call ? [callLogInsert(db, payer, call, now)] : [];
	if (reservationId === undefined) await db.batch([daily, session, ...log]);
	else await db.batch([db.delete(budgetReservations).where(eq(budgetReservations.id, reservationId)), daily, session, ...log]);
	// The metrics count what the call log holds, once it holds it.
	if (call) observeLlmCall(call);
}

/**
 * Gives a reservation back without counting anything: the call failed before it used anything. The call
 * still goes into the call log (as a failure), in the same batch.
 */
export async function release(
	db: ControlDrizzle,
	reservationId: string | undefined,
	call?: { payer: Payer; record: CallRecord; at: number }
): Promise<void> {
	const log = call ? callLogInsert(db, call.payer, call.record, call.at) : undefined;
	if (reservationId === undefined) {
		if (log) await log;
		if (call) observeLlmCall(call.record);
		return;
	}
	const give = db.delete(budgetReservations).where(eq(budgetReservations.id, reservationId));
	if (log) await db.batch([give, log]);
	else await give;
	if (call) observeLlmCall(call.record);
}

/** Money reserved and not yet settled (tests, diagnostics). */
export async function reservedMicros(db: ControlDrizzle): Promise<number> {
	const [row] = await db.select({ n: sql<number>`coalesce(sum(${budgetReservations.micros}), 0)` }).from(budgetReservations);
	return Number(row?.n ?? 0);
}

/**
 * Spending bookkeeping in the control database. Every LLM call is counted right after it returns,
 * outside any turn transaction, so a failed or cancelled turn's spending is counted too; the guard
 * is built from these totals before every turn.
 */
import * as v from 'valibot';
import { and, eq, like, sql, sum } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { controlSchema, type ControlDrizzle } from '../db';
import type { ScopeState, ScopeName } from './guard';
import { runPart, type BatchPart } from './batch';

const { usageDaily, usageSession, budgetWarnings } = controlSchema;

export const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);
export const utcMonth = (now: number): string => new Date(now).toISOString().slice(0, 7);
/** Start of the next UTC day: when a daily quota resets. */
export const nextUtcDay = (now: number): Date => {
	const d = new Date(now);
	return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
};

export interface MoneyLimits {
	limit: number | undefined;
	warnAt: number | undefined;
}

export interface ScopeLimits {
	turn: MoneyLimits;
	session: MoneyLimits;
	userDay: MoneyLimits;
	globalMonth: MoneyLimits;
	maxToolRounds: number;
}

export interface Who {
	userId: string;
	sessionId: string;
	turnId: string;
}

const CostRows = v.array(v.object({ cost: v.nullable(v.union([v.number(), v.string()])) }));
const WarnedRows = v.array(v.object({ scope: v.string() }));

/** The reads the guard's scopes for one turn are built from (the stored totals and warnings), as a batch part. */
export function scopesPart(db: ControlDrizzle, who: Who, limits: ScopeLimits, now: number): BatchPart<ScopeState[]> {
	const day = utcDay(now);
	const month = utcMonth(now);
	return {
		items: [
			db
				.select({ cost: usageDaily.costMicros })
				.from(usageDaily)
				.where(and(eq(usageDaily.userId, who.userId), eq(usageDaily.day, day))),
			db.select({ cost: usageSession.costMicros }).from(usageSession).where(eq(usageSession.sessionId, who.sessionId)),
			db
				.select({ cost: sum(usageDaily.costMicros) })
				.from(usageDaily)
				.where(like(usageDaily.day, `${month}-%`)),
			db
				.select({ scope: budgetWarnings.scope })
				.from(budgetWarnings)
				.where(
					sql`(${budgetWarnings.scope}, ${budgetWarnings.scopeKey}, ${budgetWarnings.period})
					IN (VALUES ('session', ${who.sessionId}, 'all'), ('user_day', ${who.userId}, ${day}), ('global_month', 'global', ${month}))`
				)
		],
		read: ([userDay, session, monthSum, warnedRows]) => {
			const cost = (rows: unknown) => Number(v.parse(CostRows, rows)[0]?.cost ?? 0);
			const warned = v.parse(WarnedRows, warnedRows);
			const isWarned = (scope: ScopeName) => warned.some((w) => w.scope === scope);
			return scopeStates(who, limits, now, { session: cost(session), userDay: cost(userDay), globalMonth: cost(monthSum) }, isWarned);
		}
	};
}

/**
 * The guard's scopes when no shared scope has a limit or a warning: what they spent decides nothing,
 * so nothing is read (the turn's own scopes start at zero anyway).
 */
export function unreadScopes(who: Who, limits: ScopeLimits, now: number): ScopeState[] {
	return scopeStates(who, limits, now, { session: 0, userDay: 0, globalMonth: 0 }, () => false);
}

function scopeStates(
	who: Who,
	limits: ScopeLimits,
	now: number,
	spent: { session: number; userDay: number; globalMonth: number },
	isWarned: (scope: ScopeName) => boolean
): ScopeState[] {
	const day = utcDay(now);
	const month = utcMonth(now);
	return [
		{ scope: 'turn', unit: 'calls', period: who.turnId, spent: 0, warned: false, limit: limits.maxToolRounds },
		{ scope: 'turn', unit: 'micros', period: who.turnId, spent: 0, warned: false, ...limits.turn },
		{ scope: 'session', unit: 'micros', period: 'all', spent: spent.session, warned: isWarned('session'), ...limits.session },
		{ scope: 'user_day', unit: 'micros', period: day, spent: spent.userDay, warned: isWarned('user_day'), ...limits.userDay },
		{
			scope: 'global_month',
			unit: 'micros',
			period: month,
			spent: spent.globalMonth,
			warned: isWarned('global_month'),
			...limits.globalMonth
		}
	];
}

/** Builds the guard's scopes for one turn from the stored totals: one batch, one consistent snapshot. */
export async function loadScopes(db: ControlDrizzle, who: Who, limits: ScopeLimits, now: number): Promise<ScopeState[]> {
	return runPart(db, scopesPart(db, who, limits, now));
}

/** The two upserts that count one call: against the user's day and against the session. */
export function callCounts(db: ControlDrizzle, who: Pick<Who, 'userId' | 'sessionId'>, costMicros: number, now: number) {
	const day = utcDay(now);
	return [
		db
			.insert(usageDaily)
			.values({ userId: who.userId, day, calls: 1, costMicros })
			.onConflictDoUpdate({
				target: [usageDaily.userId, usageDaily.day],
				set: { calls: sql`${usageDaily.calls} + 1`, costMicros: sql`${usageDaily.costMicros} + ${costMicros}` }
			}),
		db
			.insert(usageSession)
			.values({ sessionId: who.sessionId, calls: 1, costMicros })
			.onConflictDoUpdate({
				target: usageSession.sessionId,
				set: { calls: sql`${usageSession.calls} + 1`, costMicros: sql`${usageSession.costMicros} + ${costMicros}` }
			})
	] as const;
}

/** Counts one finished LLM call (or image) against the user's day and the session, in one batch. */
export async function recordCall(
	db: ControlDrizzle,
	who: Pick<Who, 'userId' | 'sessionId'>,
	costMicros: number,
	now: number
): Promise<void> {
	await db.batch(callCounts(db, who, costMicros, now));
}

/** Records that a scope warned in a period, as a batch part: true only the first time, across processes. */
export function warnedPart(db: ControlDrizzle, scope: ScopeName, scopeKey: string, period: string, now: number): BatchPart<boolean> {
	return {
		items: [
			db
				.insert(budgetWarnings)
				.values({ scope, scopeKey, period, warnedAt: now })
				.onConflictDoNothing()
				.returning({ scope: budgetWarnings.scope })
		],
		read: ([rows]) => v.parse(WarnedRows, rows).length > 0
	};
}

/** Records that a scope warned in a period. True only the first time, across processes. */
export async function markWarned(db: ControlDrizzle, scope: ScopeName, scopeKey: string, period: string, now: number): Promise<boolean> {
	return runPart(db, warnedPart(db, scope, scopeKey, period, now));
}

export type QuotaResult = { ok: true; used: number } | { ok: false; used: number; resetsAt: Date };

/** The per-user daily counters a quota can be kept on. */
type DailyCounter = 'turns' | 'regenerations';

/**
 * Takes one from a user's daily allowance, atomically (two requests can't both take the last one).
 * An allowance of 0 means none is kept: the take is only counted.
 */
async function takeDaily(
	db: ControlDrizzle,
	counter: DailyCounter,
	userId: string,
	quota: number,
	now: number,
	alongside?: BatchItem<'sqlite'>
): Promise<QuotaResult> {
	const day = utcDay(now);
	const column = usageDaily[counter];
	const take = db
		.insert(usageDaily)
		.values({ userId, day, [counter]: 1 })
		.onConflictDoUpdate({
			target: [usageDaily.userId, usageDaily.day],
			set: { [counter]: sql`${column} + 1` },
			...(quota === 0 ? {} : { setWhere: sql`${column} < ${quota}` })
		})
		.returning({ used: column });
	// One batch, one durable commit: whatever must be written with the take costs no second one.
	const taken = alongside ? (await db.batch([take, alongside]))[0] : await take;
	if (taken[0]) return { ok: true, used: quota === 0 ? 0 : taken[0].used };
	return { ok: false, used: quota, resetsAt: nextUtcDay(now) };
}

/** Gives one back (the request was refused after it was taken, e.g. a conflict). */
async function returnDaily(db: ControlDrizzle, counter: DailyCounter, userId: string, now: number): Promise<void> {
	const column = usageDaily[counter];
	await db
		.update(usageDaily)
		.set({ [counter]: sql`max(${column} - 1, 0)` })
		.where(and(eq(usageDaily.userId, userId), eq(usageDaily.day, utcDay(now))));
}

/**
 * Takes one turn from the user's daily free quota. A quota of 0 means no quota. `alongside` runs in
 * the same batch, right after the take (it may test `changes()` to act only when the take succeeded).
 */
export const takeTurnQuota = (db: ControlDrizzle, userId: string, quota: number, now: number, alongside?: BatchItem<'sqlite'>) =>
	takeDaily(db, 'turns', userId, quota, now, alongside);
export const returnTurnQuota = (db: ControlDrizzle, userId: string, now: number) => returnDaily(db, 'turns', userId, now);
/** Takes one hand-made image regeneration from the user's daily allowance. 0 means no allowance. */
export const takeRegeneration = (db: ControlDrizzle, userId: string, quota: number, now: number) =>
	takeDaily(db, 'regenerations', userId, quota, now);
export const returnRegeneration = (db: ControlDrizzle, userId: string, now: number) => returnDaily(db, 'regenerations', userId, now);

/** Counts what a turn's canon guard did against its session (only called when it did something). */
export async function recordCanonGuard(
	db: ControlDrizzle,
	sessionId: string,
	acted: { rewrites: number; stopped: boolean }
): Promise<void> {
	const stopped = acted.stopped ? 1 : 0;
	await db
		.insert(usageSession)
		.values({ sessionId, canonRewrites: acted.rewrites, canonStopped: stopped })
		.onConflictDoUpdate({
			target: usageSession.sessionId,
			set: {
				canonRewrites: sql`${usageSession.canonRewrites} + ${acted.rewrites}`,
				canonStopped: sql`${usageSession.canonStopped} + ${stopped}`
			}
		});
}

/**
 * The operator's usage report, read from the call log (llm_calls) and the daily counters: per day, per
 * provider/model, per user. Counts and money only; the log holds no prompt or reply text.
 */
import * as v from 'valibot';
import { and, between, eq, sql } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { utcDay, type CallRecord } from '../budget';
import type { ProviderName } from '../../types/settings';

const { llmCalls, users, usageDaily } = controlSchema;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest range one report covers. */
const MAX_REPORT_DAYS = 366;
const DEFAULT_REPORT_DAYS = 30;

const Day = v.pipe(
	v.string(),
	v.regex(/^\d{4}-\d{2}-\d{2}$/, 'dates are YYYY-MM-DD'),
	v.check((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar date')
);

export interface ReportRange {
	from: string;
	to: string;
}

/** The range from query parameters (`from`, `to`, UTC days), defaulting to the last 30 days. */
export function parseRange(params: URLSearchParams, now = Date.now()): ReportRange | { error: string } {
	const to = params.get('to') || utcDay(now);
	const from = params.get('from') || utcDay(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_REPORT_DAYS - 1) * DAY_MS);
	const parsed = v.safeParse(v.object({ from: Day, to: Day }), { from, to });
	if (!parsed.success) return { error: parsed.issues[0].message };
	const days = (Date.parse(`${parsed.output.to}T00:00:00Z`) - Date.parse(`${parsed.output.from}T00:00:00Z`)) / DAY_MS + 1;
	if (days < 1) return { error: '"from" must not be after "to"' };
	if (days > MAX_REPORT_DAYS) return { error: `a report covers at most ${MAX_REPORT_DAYS} days` };
	return parsed.output;
}

/** Every UTC day of the range, so a chart shows quiet days as zero, not as a gap that hides them. */
function daysOf(range: ReportRange): string[] {
	const out: string[] = [];
	for (let t = Date.parse(`${range.from}T00:00:00Z`); t <= Date.parse(`${range.to}T00:00:00Z`); t += DAY_MS) out.push(utcDay(t));
	return out;
}

interface UsageTotals {
	calls: number;
	inputTokens: number;
	cachedInputTokens: number;
	cacheWriteTokens: number;
	outputTokens: number;
	costMicros: number;
	failures: number;
	retries: number;
	/** LLM latency of the calls that finished, in ms; null without any. */
	p50Ms: number | null;
	p95Ms: number | null;
}

interface DayUsage extends UsageTotals {
	day: string;
}
interface ModelUsage extends UsageTotals {
	provider: ProviderName;
	model: string;
}
interface DayModelUsage extends ModelUsage {
	day: string;
}
interface UserUsage {
	userId: string;
	name: string;
	tier: string;
	turns: number;
	calls: number;
	inputTokens: number;
	cachedInputTokens: number;
	outputTokens: number;
	costMicros: number;
}

export interface UsageReport {
	range: ReportRange;
	total: UsageTotals;
	days: DayUsage[];
	models: ModelUsage[];
	dayModels: DayModelUsage[];
	users: UserUsage[];
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
	if (sorted.length === 0) return null;
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** A call-log row as the report reads it: the record the budget wrote, with its day and the stored failure. */
interface CallRow extends Omit<CallRecord, 'failure'> {
	day: string;
	failure: string | null;
}

function totals(rows: readonly CallRow[]): UsageTotals {
	const latencies = rows.filter((r) => r.failure === null).map((r) => r.latencyMs);
	latencies.sort((a, b) => a - b);
	const sum = (pick: (r: CallRow) => number) => rows.reduce((n, r) => n + pick(r), 0);
	return {
		calls: rows.length,
		inputTokens: sum((r) => r.inputTokens),
		cachedInputTokens: sum((r) => r.cachedInputTokens),
		cacheWriteTokens: sum((r) => r.cacheWriteTokens),
		outputTokens: sum((r) => r.outputTokens),
		costMicros: sum((r) => r.costMicros),
		failures: rows.filter((r) => r.failure !== null).length,
		retries: sum((r) => r.retries),
		p50Ms: percentile(latencies, 50),
		p95Ms: percentile(latencies, 95)
	};
}

function groupBy<K extends string>(rows: readonly CallRow[], key: (r: CallRow) => K): Map<K, CallRow[]> {
	const groups = new Map<K, CallRow[]>();
	for (const r of rows) {
		const k = key(r);
		const list = groups.get(k);
		if (list) list.push(r);
		else groups.set(k, [r]);
	}
	return groups;
}

/** A group's first row, which holds the fields it was grouped by (groupBy makes no empty group). */
function firstOf(list: readonly CallRow[]): CallRow {
	const [first] = list;
	if (!first) throw new Error('an empty group of calls');
	return first;
}

export async function usageReport(db: ControlDrizzle, range: ReportRange): Promise<UsageReport> {
	const rows: CallRow[] = await db
		.select({
			day: llmCalls.day,
			provider: llmCalls.provider,
			model: llmCalls.model,
			inputTokens: llmCalls.inputTokens,
			cachedInputTokens: llmCalls.cachedInputTokens,
			cacheWriteTokens: llmCalls.cacheWriteTokens,
			outputTokens: llmCalls.outputTokens,
			costMicros: llmCalls.costMicros,
			latencyMs: llmCalls.latencyMs,
			retries: llmCalls.retries,
			failure: llmCalls.failure
		})
		.from(llmCalls)
		.where(between(llmCalls.day, range.from, range.to));
	const byDay = groupBy(rows, (r) => r.day);
	const modelKey = (r: CallRow) => `${r.provider}\u0000${r.model}`;
	const byModel = groupBy(rows, modelKey);
	const byDayModel = groupBy(rows, (r) => `${r.day}\u0000${modelKey(r)}`);
	const users = await userUsage(db, range);
	return {
		range,
		total: totals(rows),
		days: daysOf(range).map((day) => ({ day, ...totals(byDay.get(day) ?? []) })),
		models: [...byModel.values()]
			.map((list) => {
				const { provider, model } = firstOf(list);
				return { provider, model, ...totals(list) };
			})
			.sort((a, b) => b.costMicros - a.costMicros || b.calls - a.calls),
		dayModels: [...byDayModel.values()]
			.map((list) => {
				const { day, provider, model } = firstOf(list);
				return { day, provider, model, ...totals(list) };
			})
			.sort((a, b) => a.day.localeCompare(b.day) || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model)),
		users
	};
}

async function userUsage(db: ControlDrizzle, range: ReportRange): Promise<UserUsage[]> {
	const calls = await db
		.select({
			userId: llmCalls.userId,
			calls: sql<number>`count(*)`,
			inputTokens: sql<number>`sum(${llmCalls.inputTokens})`,
			cachedInputTokens: sql<number>`sum(${llmCalls.cachedInputTokens})`,
			outputTokens: sql<number>`sum(${llmCalls.outputTokens})`,
			costMicros: sql<number>`sum(${llmCalls.costMicros})`
		})
		.from(llmCalls)
		.where(between(llmCalls.day, range.from, range.to))
		.groupBy(llmCalls.userId);
	const turns = await db
		.select({ userId: usageDaily.userId, turns: sql<number>`sum(${usageDaily.turns})` })
		.from(usageDaily)
		.where(and(between(usageDaily.day, range.from, range.to)))
		.groupBy(usageDaily.userId);
	const ids = new Set([...calls.map((c) => c.userId), ...turns.filter((t) => Number(t.turns) > 0).map((t) => t.userId)]);
	const out: UserUsage[] = [];
	for (const userId of ids) {
		const [user] = await db.select({ name: users.name, tier: users.tier }).from(users).where(eq(users.id, userId));
		const c = calls.find((x) => x.userId === userId);
		out.push({
			userId,
			// A deleted account's spending still counts; it is shown without a name.
			name: user?.name ?? '(deleted account)',
			tier: user?.tier ?? '—',
			turns: Number(turns.find((t) => t.userId === userId)?.turns ?? 0),
			calls: Number(c?.calls ?? 0),
			inputTokens: Number(c?.inputTokens ?? 0),
			cachedInputTokens: Number(c?.cachedInputTokens ?? 0),
			outputTokens: Number(c?.outputTokens ?? 0),
			costMicros: Number(c?.costMicros ?? 0)
		});
	}
	return out.sort((a, b) => b.costMicros - a.costMicros || a.name.localeCompare(b.name));
}

/**
 * What a turn's LLM calls cost: every finished call is priced, its budget reservation settled with the
 * real cost and each scope's warning fired once; the turn keeps the calls as ledger rows, written with
 * its commit (or its end), and sums them as its spend.
 */
import { sessionSchema, type SessionDb, type SessionTx } from '../db';
import { costMicros, markWarned, priceFor, settle, type BudgetGuard, type BudgetWarning, type CallRecord, type Payer } from '../budget';
import type { LlmUsage } from '../llm';
import type { SessionEvent } from '../../types/events';
import type { TurnRow } from './turns';
import type { EngineDeps, TurnSpend } from './types';

const { ledger } = sessionSchema;

export interface LedgerRow {
	provider: string;
	model: string;
	usage: LlmUsage;
	costMicros: number;
	at: number;
}

export const NO_USAGE: LlmUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

export function spendOf(rows: readonly LedgerRow[], settings: { provider?: string | undefined; model?: string | undefined }): TurnSpend {
	const spend: TurnSpend = {
		provider: settings.provider,
		model: settings.model,
		calls: rows.length,
		inputTokens: 0,
		cachedInputTokens: 0,
		outputTokens: 0,
		costMicros: 0
	};
	for (const r of rows) {
		spend.inputTokens += r.usage.inputTokens;
		spend.cachedInputTokens += r.usage.cachedInputTokens;
		spend.outputTokens += r.usage.outputTokens;
		spend.costMicros += r.costMicros;
	}
	return spend;
}

/** The ledger rows of a turn that ended with `outcome`, as the ledger table's values. */
export function ledgerValues(turnId: string, outcome: 'committed' | 'failed' | 'cancelled', rows: readonly LedgerRow[]) {
	return rows.map((r) => ({
		turnId,
		outcome,
		provider: r.provider,
		model: r.model,
		inputTokens: r.usage.inputTokens,
		cachedInputTokens: r.usage.cachedInputTokens,
		cacheWriteTokens: r.usage.cacheWriteTokens ?? 0,
		outputTokens: r.usage.outputTokens,
		costMicros: r.costMicros,
		createdAt: r.at
	}));
}

/** Writes the ledger rows in one insert (none for no rows). */
export async function writeLedger(
	tx: SessionTx,
	turnId: string,
	outcome: 'committed' | 'failed' | 'cancelled',
	rows: readonly LedgerRow[]
): Promise<void> {
	if (rows.length > 0) await tx.insert(ledger).values(ledgerValues(turnId, outcome, rows));
}

/** What metering needs from the turn: the same for every call of it. */
export interface Metering {
	deps: EngineDeps;
	s: SessionDb;
	turn: TurnRow;
	payer: Payer;
	guard: BudgetGuard;
	/** The turn's ledger rows, written with its commit (or its end). */
	rows: LedgerRow[];
	emit: (e: SessionEvent) => Promise<void>;
}

/** One finished call, as it is metered. */
export interface MeteredCall {
	reservationId: string | undefined;
	call: Pick<CallRecord, 'provider' | 'model' | 'latencyMs' | 'retries' | 'failure'>;
	usage: LlmUsage;
	at: number;
}

/** Meters one finished call: price it, settle its reservation with the real cost, fire each scope's warning once. */
export async function meter(m: Metering, { reservationId, call, usage, at }: MeteredCall): Promise<void> {
	const { provider, model } = call;
	const cost = costMicros(priceFor(m.deps.config.engine.prices, model), usage);
	m.rows.push({ provider, model, usage, costMicros: cost, at });
	const record: CallRecord = {
		...call,
		inputTokens: usage.inputTokens,
		cachedInputTokens: usage.cachedInputTokens,
		cacheWriteTokens: usage.cacheWriteTokens ?? 0,
		outputTokens: usage.outputTokens,
		costMicros: cost
	};
	await settle(m.deps.control.db, reservationId, m.payer, cost, at, record);
	for (const w of m.guard.record(cost)) await warn(m, w, at);
}

async function warn({ deps, s, turn, emit }: Metering, w: BudgetWarning, at: number): Promise<void> {
	const key = w.scope === 'session' ? s.id : w.scope === 'user_day' ? turn.userId : w.scope === 'global_month' ? 'global' : turn.id;
	// The turn scope lives only in this guard; the others warn once across processes.
	if (w.scope !== 'turn' && !(await markWarned(deps.control.db, w.scope, key, w.period, at))) return;
	const amount = (n: number) => (w.unit === 'micros' ? `$${(n / 1_000_000).toFixed(6)}` : `${n} calls`);
	const limit = w.limit !== undefined ? `, limit ${amount(w.limit)}` : '';
	const message = `Budget warning (${w.scope}): ${amount(w.spent)} spent, warning at ${amount(w.warnAt)}${limit}.`;
	console.warn(`[kantera] ${message} session=${s.id}`);
	await emit({
		type: 'budget.warning',
		scope: w.scope,
		message,
		unit: w.unit,
		spent: w.spent,
		warnAt: w.warnAt,
		...(w.limit !== undefined ? { limit: w.limit } : {})
	});
}

/**
 * What a turn's LLM calls cost: the player's tier and the budget scopes read at the turn's start with
 * the first call's reservation, every call's worst case reserved against the shared scopes before it
 * starts, every finished call priced, its reservation settled with the real cost and each scope's
 * warning fired once; the turn keeps the calls as ledger rows, written with its commit (or its end),
 * and sums them as its spend.
 */
import { sql } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionTx } from '../db';
import {
	BudgetGuard,
	costMicros,
	priceFor,
	releasePart,
	reservePart,
	reserveWhenFree,
	runParts,
	scopesPart,
	settlePart,
	sharedScopesApply,
	unreadScopes,
	warnedPart,
	worstCaseMicros,
	type BatchPart,
	type BudgetWarning,
	type CallRecord,
	type Payer,
	type PriceTable,
	type Reservation
} from '../budget';
import { perTier, settingsForTier, tierPart } from '../tiers';
import { observeLlmCall } from '../ops';
import type { LlmRequest, LlmUsage } from '../llm';
import { MAX_OUTPUT_TOKENS } from '../context-window';
import type { SessionSettings } from '../session-setup';
import type { SessionEvent } from '../../types/events';
import type { Tier } from '../../types/account';
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

export { MAX_OUTPUT_TOKENS };

/**
 * How long a call's budget reservation outlives the turn's deadline: a process that died mid-call
 * leaves one behind, and this is when it stops holding the money.
 */
export const RESERVATION_GRACE_MS = 60_000;

/** What one call sends, as far as its worst case goes. */
type CallRequest = Pick<LlmRequest, 'system' | 'messages' | 'tools' | 'maxOutputTokens'>;

/** The most one call of `model` with this request can cost (what its reservation holds). */
export function worstCaseOf(prices: PriceTable, model: string, request: CallRequest): number {
	return worstCaseMicros(priceFor(prices, model), requestBytes(request), request.maxOutputTokens ?? MAX_OUTPUT_TOKENS);
}

/** The size of what a call sends, in bytes: the bound its worst-case input is priced at. */
function requestBytes(req: CallRequest): number {
	return Buffer.byteLength(req.system) + Buffer.byteLength(JSON.stringify(req.messages)) + toolBytes(req.tools);
}

/** The tool schemas' JSON size, kept per array: a turn's prompt shares one array for the app's life (request.ts). */
const toolBytesOf = new WeakMap<CallRequest['tools'], number>();

function toolBytes(tools: CallRequest['tools']): number {
	let bytes = toolBytesOf.get(tools);
	if (bytes === undefined) {
		bytes = Buffer.byteLength(JSON.stringify(tools));
		toolBytesOf.set(tools, bytes);
	}
	return bytes;
}

/** One finished call, as it is metered. */
export interface MeteredCall {
	reservationId: string | undefined;
	call: Pick<CallRecord, 'provider' | 'model' | 'latencyMs' | 'retries' | 'failure'>;
	usage: LlmUsage;
	at: number;
}

/** What the turn's start gives the metering: the turn, and how to tell the player of a warning. */
export interface MeteringStart {
	deps: EngineDeps;
	s: SessionDb;
	turn: TurnRow;
	/** The session's stored LLM settings; the player's tier may put its fixed model over them. */
	stored: SessionSettings;
	/** What the turn's first call sends: its worst case is reserved with the start. */
	firstCall: CallRequest;
	/** The turn's ledger rows, written with its commit (or its end). */
	rows: LedgerRow[];
	emit: (e: SessionEvent) => Promise<void>;
	now: () => number;
	/** How long a reservation holds (the turn's deadline and a grace). */
	ttlMs: number;
}

/**
 * Something a finished call left to send to the control database: its settle (or release) and the
 * marks of the warnings it fired. Reading the results gives what to do once the batch is durable.
 */
type Pending = BatchPart<() => Promise<void>>;

/**
 * The metering of one turn, with one control-database batch per step: the start (the budget scopes
 * and the first call's reservation; the player's tier too when the turn does not carry it), then one
 * per call (its settle, its warnings and the next call's reservation), the last call's settled by
 * `close` before the turn commits or ends. A call's settle is sent at the latest with the next call's
 * reservation and always before the turn commits or ends, so it is durable before anything the call
 * returned is kept; until then its reservation (the worst case) holds its money in every shared
 * scope, so turns running at once never see less spent than there is.
 *
 * Without any limit or warning (no shared scope's, none on the turn) nothing is reserved and nothing
 * spent decides anything, so the start reads nothing and every call's settle waits for `close`: one
 * batch for all of them, still before the turn commits or ends.
 */
export class TurnMeter {
	private pending: Pending[] = [];

	private constructor(
		private readonly m: MeteringStart,
		readonly payer: Payer,
		readonly guard: BudgetGuard,
		/** The first call's reservation, made with the start; given to that call, or released. */
		private held: Reservation | undefined,
		/** No limit or warning anywhere: the calls' settles all go with `close`. */
		private readonly settleAtClose: boolean
	) {}

	/**
	 * The turn's start, in one batch: the first call's reservation (its worst case depends on the model
	 * the player's tier plays: the tier the turn was accepted under, or, for a turn without one, computed
	 * for each tier and picked in SQL by the stored tier), the tier if the turn does not carry it, and the
	 * budget scopes if any shared one has a limit or a warning. Nothing is sent when none of these is
	 * needed. Returns the settings the turn plays with.
	 */
	static async start(m: MeteringStart): Promise<{ meter: TurnMeter; settings: SessionSettings }> {
		const { deps, turn, s, stored, firstCall } = m;
		const db = deps.control.db;
		const budget = deps.config.engine.budget;
		const payer: Payer = { userId: turn.userId, sessionId: s.id };
		const now = m.now();
		const firstWorstCase = (tier: Tier | undefined) => {
			const { provider, model } = settingsForTier(deps.config, stored, tier);
			return provider && model ? worstCaseOf(deps.config.engine.prices, model, firstCall) : undefined;
		};
		// The tier the quota was counted under at the accept; a tier changed since applies from the next turn.
		const carried = turn.tier ?? undefined;
		const worstCase = carried ? (firstWorstCase(carried) ?? sql`null`) : perTier(turn.userId, firstWorstCase);
		const reservation = reservePart(db, payer, budget, worstCase, now, m.ttlMs);
		const tier = carried ? undefined : tierPart(db, turn.userId);
		const limits = { ...budget, maxToolRounds: deps.config.engine.maxToolRounds };
		const who = { ...payer, turnId: turn.id };
		const shared = sharedScopesApply(budget);
		const scopes = shared ? scopesPart(db, who, limits, now) : undefined;
		// The reservation writes: it goes first (see runParts).
		const [reserved = [], tierRows = [], scopeRows = []] = await runParts(db, [reservation ?? NO_PART, tier ?? NO_PART, scopes ?? NO_PART]);
		const settings = settingsForTier(deps.config, stored, carried ?? tier?.read(tierRows));
		// Without a model nothing was reserved (its worst case was NULL); the turn ends on that at once.
		const held = reservation && settings.provider && settings.model ? reservation.read(reserved) : undefined;
		const guard = new BudgetGuard(scopes ? scopes.read(scopeRows) : unreadScopes(who, limits, now));
		const turnLimited = budget.turn.limit !== undefined || budget.turn.warnAt !== undefined;
		return { meter: new TurnMeter(m, payer, guard, held, !shared && !turnLimited), settings };
	}

	/**
	 * Reserves a call's worst case against the shared scopes, in one batch with what earlier calls left
	 * to send (the last call's settle and warnings); the first call takes the reservation made with the
	 * start. Waits while only other calls in flight stand in the way.
	 */
	async reserve(micros: number, signal: AbortSignal): Promise<Reservation> {
		const { deps, now, ttlMs } = this.m;
		const db = deps.control.db;
		const limits = deps.config.engine.budget;
		const held = this.held;
		this.held = undefined;
		let tried: Reservation | undefined = held;
		if (held) await this.send(undefined);
		// Nothing to reserve and nothing the settles decide: they wait for `close`.
		else if (!this.settleAtClose) tried = await this.send(reservePart(db, this.payer, limits, micros, now(), ttlMs));
		return reserveWhenFree(db, this.payer, limits, micros, { now, ttlMs, signal, ...(tried ? { tried } : {}) });
	}

	/**
	 * Meters one finished call: prices it and keeps its ledger row now, counts it in the guard (so the
	 * next check sees it), and leaves its settle and the warnings it fired to the next batch.
	 */
	meter({ reservationId, call, usage, at }: MeteredCall): void {
		const { deps, rows } = this.m;
		const { provider, model } = call;
		const cost = costMicros(priceFor(deps.config.engine.prices, model), usage);
		rows.push({ provider, model, usage, costMicros: cost, at });
		const record: CallRecord = {
			...call,
			inputTokens: usage.inputTokens,
			cachedInputTokens: usage.cachedInputTokens,
			cacheWriteTokens: usage.cacheWriteTokens ?? 0,
			outputTokens: usage.outputTokens,
			costMicros: cost
		};
		const settle = settlePart(deps.control.db, reservationId, this.payer, cost, at, record);
		// The metrics count what the call log holds, once it holds it.
		this.pending.push({ items: settle.items, read: () => async () => observeLlmCall(record) });
		for (const w of this.guard.record(cost)) this.pending.push(this.warning(w, at));
	}

	/** Gives a call's reservation back (the call failed before it used anything) and logs the call, with the next batch. */
	release(reservationId: string | undefined, call: MeteredCall['call'], at: number): void {
		const record: CallRecord = { ...call, ...NO_USAGE, cacheWriteTokens: 0, costMicros: 0 };
		const part = releasePart(this.m.deps.control.db, reservationId, { payer: this.payer, record, at });
		this.pending.push({ items: part.items, read: () => async () => observeLlmCall(record) });
	}

	/**
	 * Sends what is left (the last call's settle and warnings; the start's reservation if no call took
	 * it). Before the turn commits or ends: a call's cost is durable before its result is kept.
	 */
	async close(): Promise<void> {
		const held = this.held;
		this.held = undefined;
		if (held?.ok && held.id !== undefined) {
			const give = releasePart(this.m.deps.control.db, held.id);
			this.pending.push({ items: give.items, read: () => async () => undefined });
		}
		await this.send(undefined);
	}

	/** One batch: what is pending, then `next` (if any). The pending parts' effects run once it is durable. */
	private async send<T>(next: BatchPart<T> | undefined): Promise<T | undefined> {
		const pending = this.pending;
		// Taken before sending: a batch that fails is not sent twice (it may have been committed).
		this.pending = [];
		const results = await runParts(this.m.deps.control.db, next ? [...pending, next] : pending);
		const effects = pending.map((p, i) => p.read(results[i] ?? []));
		const out = next ? next.read(results[pending.length] ?? []) : undefined;
		for (const effect of effects) await effect();
		return out;
	}

	/** A warning the guard fired: the turn's own is told at once; a shared scope's only by the first to mark it. */
	private warning(w: BudgetWarning, at: number): Pending {
		const { s, turn } = this.m;
		if (w.scope === 'turn') return { items: [], read: () => () => this.announce(w) };
		const key = w.scope === 'session' ? s.id : w.scope === 'user_day' ? turn.userId : 'global';
		const mark = warnedPart(this.m.deps.control.db, w.scope, key, w.period, at);
		return { items: mark.items, read: (r) => (mark.read(r) ? () => this.announce(w) : async () => undefined) };
	}

	private async announce(w: BudgetWarning): Promise<void> {
		const amount = (n: number) => (w.unit === 'micros' ? `$${(n / 1_000_000).toFixed(6)}` : `${n} calls`);
		const limit = w.limit !== undefined ? `, limit ${amount(w.limit)}` : '';
		const message = `Budget warning (${w.scope}): ${amount(w.spent)} spent, warning at ${amount(w.warnAt)}${limit}.`;
		console.warn(`[kantera] ${message} session=${this.m.s.id}`);
		await this.m.emit({
			type: 'budget.warning',
			scope: w.scope,
			message,
			unit: w.unit,
			spent: w.spent,
			warnAt: w.warnAt,
			...(w.limit !== undefined ? { limit: w.limit } : {})
		});
	}
}

const NO_PART: BatchPart<undefined> = { items: [], read: () => undefined };

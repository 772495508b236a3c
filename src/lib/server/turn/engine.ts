/**
 * One GM turn, start to finish: build the context from records, run the capped tool loop against the
 * LLM while streaming text into the event log, meter every call, and commit every staged write with
 * the play-log messages, stage cues and cost ledger in one transaction, or nothing at all.
 */
import { and, eq } from 'drizzle-orm';
import { sessionSchema, type ControlDb, type SessionDb, type SessionTx } from '../db';
import type { Config } from '../config';
import { log, summaries } from '../records';
import * as stage from '../stage';
import type { Embedder } from '../search';
import {
	BudgetGuard,
	BudgetExceededError,
	costMicros,
	type CallRecord,
	loadScopes,
	markWarned,
	priceFor,
	release,
	reserveWhenFree,
	settle,
	worstCaseMicros,
	type BudgetWarning,
	type Payer
} from '../budget';
import { buildContext, checkpointMessages, systemText, windowOf, type ContextMessage, type TokenCounter } from '../memory';
import { LlmError, type LlmMessage, type LlmProvider, type LlmRequest, type LlmToolCall, type LlmUsage, type ProviderName } from '../llm';
import { runToolCall } from '../tools/run';
import type { Tool } from '../tools/define';
import type { AdvCue, ToolContext } from '../tools/context';
import { appendEvent, appendEventsQuery, pruneStreamingEvents, DELTA_RETENTION_MS, PRUNE_EVERY_COMMITS, type EventBus } from './events';
import { DeltaWriter } from './deltas';
import { Staging } from './staging';
import { ledgerValues, playerCommitTail, type CommittedTurn, type LedgerRow } from './commit-batch';
import { finishUncommitted, type TurnRow } from './leases';
import { loadTurnStart, nextSeq } from './history';
import { readSettings } from './settings';
import { applyPendingModel } from './handoff';
import { LeaseLostError, TurnCancelledError } from './errors';
import { classifyFailure, logFailure, newErrorId, TurnDeadlineError } from './failure';
import type { TurnFailure } from '../../types/events';
import { fixedModel, tierOf } from '../tiers';

const { turns, ledger } = sessionSchema;

export interface EngineDeps {
	config: Pick<Config, 'engine' | 'llm' | 'tiers'>;
	control: ControlDb;
	bus: EventBus;
	embedder: Embedder;
	provider: (name: ProviderName) => LlmProvider;
	tools: ReadonlyMap<string, Tool<ToolContext>>;
	/** Tools whose name may be shown to the player as activity. */
	visibleTools: ReadonlySet<string>;
	countTokens: TokenCounter;
	now?: () => number;
}

export interface TurnOutcome {
	status: 'committed' | 'failed' | 'cancelled';
	reply?: string;
	stopped?: string;
	/** Why a failed turn failed; the details went to the server log under its error id. */
	failure?: TurnFailure;
	/** What the turn's LLM calls used and cost, for its log line and the metrics. */
	spent: TurnSpend;
	/** Image orders the commit made this turn's: the image runner has work only when there are some. */
	imageOrders?: number;
}

export interface TurnSpend {
	provider: string | undefined;
	model: string | undefined;
	calls: number;
	inputTokens: number;
	cachedInputTokens: number;
	outputTokens: number;
	costMicros: number;
}

function spendOf(rows: readonly LedgerRow[], settings: { provider?: string | undefined; model?: string | undefined }): TurnSpend {
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

/** The model's output cap per call; generous for narration, bounded so one call can't run away. */
export const MAX_OUTPUT_TOKENS = 4096;

/**
 * How long a call's budget reservation outlives the turn's deadline: a process that died mid-call
 * leaves one behind, and this is when it stops holding the money.
 */
export const RESERVATION_GRACE_MS = 60_000;

const NO_USAGE: LlmUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/** Why a committed turn ended early, in words the player reads. */
function stopReason(err: BudgetExceededError): string {
	if (err.scope === 'turn' && err.unit === 'calls') return 'round_cap';
	return `budget:${err.scope}`;
}

/**
 * Runs one turn. `signal` is the player's cancel (or the runner stopping); the turn's own deadline
 * (KANTERA_TURN_TIMEOUT_S) is kept here and ends it as failed, timed out.
 */
export async function executeTurn(deps: EngineDeps, s: SessionDb, turn: TurnRow, owner: string, signal: AbortSignal): Promise<TurnOutcome> {
	const now = deps.now ?? Date.now;
	const deadlineMs = deps.config.engine.turnTimeoutMs;
	const deadline = AbortSignal.timeout(deadlineMs);
	/** Everything the turn waits for (LLM calls, budget waits) stops on either. */
	const stop = AbortSignal.any([signal, deadline]);
	const halted = () => (signal.aborted ? new TurnCancelledError() : new TurnDeadlineError(deadlineMs));
	const staging = new Staging(s);
	const stored = await readSettings(s.db, deps.config);
	// A free-tier player's turns run on the operator's free model, whatever the session had stored.
	const tier = await tierOf(deps.control.db, turn.userId);
	const fixed = tier ? fixedModel(deps.config, tier) : undefined;
	const settings = fixed ? { ...stored, ...fixed } : stored;
	const ledgerRows: LedgerRow[] = [];
	const cues: AdvCue[] = [];
	const deltas = new DeltaWriter(s, deps.bus, turn.id);
	const deltaEvent = (text: string) => ({ type: 'text.delta' as const, turnId: turn.id, text });
	const emit = async (event: Parameters<typeof appendEvent>[1]) => {
		// Streamed text not yet in the log goes first, in the same transaction: one durable commit, same order.
		const text = await deltas.take();
		await s.writes.batch([text ? appendEventsQuery(s.writes, deltaEvent(text), event) : appendEventsQuery(s.writes, event)]);
		deps.bus.notify(s.id);
	};
	/** Streamed text the commit writes itself; handed back to the writer if the turn fails instead. */
	let tail = '';

	try {
		if (!settings.provider || !settings.model)
			throw new LlmError('config', 'No LLM provider is configured for this session.', { retryable: false });
		const provider = deps.provider(settings.provider);
		const start = await loadTurnStart(s.db);
		const mission = start.mission ?? '';
		const { head, history } = start;
		let messages: ContextMessage[];
		let headText: string;
		if (turn.kind === 'player') {
			const ctx = buildContext(mission, head, windowOf(history, deps.config.engine.memory), turn.input);
			messages = ctx.messages;
			headText = ctx.head;
		} else {
			await emit({ type: 'checkpoint.started', turnId: turn.id });
			const ctx = buildContext(mission, head, [], '');
			headText = ctx.head;
			messages = checkpointMessages(history, turn.input);
		}
		const system = systemText({ mission, head: headText });
		const conversation: LlmMessage[] = messages.map((m) => ({ role: m.role, content: m.content }));

		const guard = new BudgetGuard(
			await loadScopes(
				deps.control.db,
				{ userId: turn.userId, sessionId: s.id, turnId: turn.id },
				{ ...deps.config.engine.budget, maxToolRounds: deps.config.engine.maxToolRounds },
				now()
			)
		);
		const payer: Payer = { userId: turn.userId, sessionId: s.id };
		const price = priceFor(deps.config.engine.prices, settings.model);
		const metering: Metering = { deps, s, turn, payer, guard, rows: ledgerRows, emit };
		const toolCtx: ToolContext = {
			read: (fn) => staging.read(fn),
			write: (fn) => staging.write(fn),
			embedder: deps.embedder,
			language: settings.language,
			cues,
			places: [],
			choices: []
		};
		const toolSpecs = [...deps.tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		const replyParts: string[] = [];
		let stopped: string | undefined;

		for (;;) {
			if (stop.aborted) throw halted();
			const exceeded = guard.exceeded();
			if (exceeded) {
				stopped = stopReason(exceeded);
				break;
			}
			// The mission leads the system text and never changes: with the tools it is the prompt-cache prefix.
			const request = {
				model: settings.model,
				system,
				stableSystemChars: mission.length,
				messages: conversation,
				tools: toolSpecs,
				maxOutputTokens: MAX_OUTPUT_TOKENS,
				signal: stop
			};
			// The scopes other turns share hold this call's worst case until it is settled, so turns running
			// at once (in any session or process) can't all start a call on the same remaining money.
			const reservation = await reserveWhenFree(
				deps.control.db,
				payer,
				deps.config.engine.budget,
				worstCaseMicros(price, requestBytes(request), MAX_OUTPUT_TOKENS),
				{
					now,
					ttlMs: deadlineMs + RESERVATION_GRACE_MS,
					signal: stop
				}
			);
			if (!reservation.ok) {
				stopped = stopReason(reservation.exceeded);
				break;
			}
			guard.refresh(reservation.totals);
			let text = '';
			const calls: LlmToolCall[] = [];
			let usage: LlmUsage | undefined;
			let finished = false;
			let failure: string | undefined;
			const call = { started: now(), retries: 0 };
			try {
				for await (const ev of provider.stream({ ...request, onRetry: () => void (call.retries += 1) })) {
					if (ev.type === 'text') {
						// The reply joins rounds with a blank line: stream it too, so live paragraph numbers match the cues'.
						if (turn.kind === 'player' && text === '' && replyParts.length > 0) deltas.push('\n\n');
						text += ev.delta;
						if (turn.kind === 'player') deltas.push(ev.delta);
					} else if (ev.type === 'tool_call') calls.push({ id: ev.id, name: ev.name, arguments: ev.arguments });
					else if (ev.type === 'usage') usage = ev;
				}
				finished = true;
			} catch (err) {
				failure = err instanceof LlmError ? err.kind : 'internal';
				throw err;
			} finally {
				const at = now();
				const logged = { provider: settings.provider, model: settings.model, latencyMs: at - call.started, retries: call.retries, failure };
				// Metered even when the stream failed part-way: whatever the vendor reported was paid for.
				// A call that failed before reporting anything only gives its reservation back (and is logged as failed).
				if (usage || finished) await meter(metering, { reservationId: reservation.id, call: logged, usage: usage ?? NO_USAGE, at });
				else
					await release(deps.control.db, reservation.id, {
						payer,
						record: { ...logged, ...NO_USAGE, cacheWriteTokens: 0, costMicros: 0 },
						at
					});
			}
			if (text.trim()) replyParts.push(text.trim());
			if (calls.length === 0) break;
			conversation.push({ role: 'assistant', content: text, toolCalls: calls });
			for (const call of calls) {
				if (aborted(stop)) throw halted();
				const staged = { cues: toolCtx.cues.length, places: toolCtx.places.length };
				const result = await runToolCall(deps.tools, call, toolCtx);
				conversation.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content, isError: result.isError });
				if (turn.kind === 'player' && deps.visibleTools.has(call.name))
					await emit({ type: 'tool.activity', turnId: turn.id, tool: call.name });
				// Staged stage directions go to the screen now, to play at their paragraph while the reply streams.
				if (turn.kind === 'player' && (toolCtx.cues.length > staged.cues || toolCtx.places.length > staged.places)) {
					await emit({
						type: 'stage.staged',
						turnId: turn.id,
						cues: toolCtx.cues.slice(staged.cues),
						places: toolCtx.places.slice(staged.places)
					});
				}
			}
		}

		const reply = replyParts.join('\n\n');
		// Each write transaction is a durable commit (an fsync, ~4 ms on a VM disk): the last streamed
		// text goes into the turn's commit, right before turn.committed, instead of a transaction of its own.
		tail = await deltas.take();
		if (aborted(stop)) throw halted();
		if (turn.kind !== 'player' && !reply) throw new LlmError('protocol', 'The GM wrote no hand-off summary.', { retryable: true });

		const tokens = turn.kind === 'player' ? deps.countTokens(turn.input) + deps.countTokens(reply) : null;
		const finishedAt = now();
		let summaryId = 0;
		let imageOrders = 0;
		const messageIds: number[] = [];
		const committedTurn: CommittedTurn = {
			status: 'committed',
			reply,
			stopped: stopped ?? null,
			tokens,
			provider: settings.provider,
			model: settings.model,
			finishedAt,
			leaseOwner: null,
			leaseExpiresAt: null
		};
		const offered = reply && toolCtx.choices.length > 0 ? { choices: [...toolCtx.choices] } : {};
		const committedEvent = (ids: number[]) =>
			({ type: 'turn.committed', turnId: turn.id, reply, messageIds: ids, ...(stopped ? { stopped } : {}), ...offered }) as const;
		// A player turn's commit goes as one write batch (one round trip, one durable commit) unless a
		// record changed since its staged writes ran; then, and for the other kinds, the interactive way.
		const batched =
			turn.kind === 'player'
				? await staging.commitBatch(
						(base) =>
							playerCommitTail(s.db, base, {
								turnId: turn.id,
								owner,
								input: turn.input,
								reply,
								tail: tail ? deltaEvent(tail) : undefined,
								cues,
								choices: toolCtx.choices,
								ledger: ledgerRows,
								turn: committedTurn,
								committed: committedEvent
							}),
						{ turnId: turn.id, owner, undoAs: turn.id }
					)
				: undefined;
		if (batched) {
			messageIds.push(...batched.value.messageIds);
			imageOrders = batched.value.imageOrders;
		} else
			await staging.commit(
				async (tx) => {
					if (tail) await appendEvent(tx, deltaEvent(tail));
					const seq = await nextSeq(tx);
					if (seq % PRUNE_EVERY_COMMITS === 0) await pruneStreamingEvents(tx, finishedAt - DELTA_RETENTION_MS);
					if (turn.kind === 'player') {
						const player = await log.append(tx, { role: 'player', body: turn.input, turnId: turn.id });
						messageIds.push(player.id);
						if (reply) {
							const gm = await log.append(tx, { role: 'gm', body: reply, turnId: turn.id });
							messageIds.push(gm.id);
							await stage.cues.save(tx, { turnId: turn.id, messageId: gm.id, cues });
							if (toolCtx.choices.length > 0) await stage.choices.save(tx, { messageId: gm.id, options: toolCtx.choices });
						}
					} else {
						summaryId = (await summaries.append(tx, { body: reply })).id;
						if (turn.kind === 'handoff') await applyPendingModel(tx);
					}
					// Orders placed by this turn's tools become this turn's: the image runner starts them after commit.
					imageOrders = await stage.imageOrders.claimForTurn(tx, turn.id);
					await writeLedger(tx, turn.id, 'committed', ledgerRows);
					const done = await tx
						.update(turns)
						.set({ ...committedTurn, seq })
						.where(and(eq(turns.id, turn.id), eq(turns.status, 'running'), eq(turns.leaseOwner, owner)))
						.returning({ id: turns.id });
					if (done.length === 0) throw new LeaseLostError(turn.id);
					if (turn.kind === 'player') await appendEvent(tx, committedEvent(messageIds));
					else await appendEvent(tx, { type: 'checkpoint.done', turnId: turn.id, summaryId });
					// Every record the commit wrote is noted in the undo log with it, checkpoints and hand-offs too:
					// an undo takes back the turn and whatever summary or model switch committed after it.
				},
				{ undoAs: turn.id }
			);
		deps.bus.notify(s.id);
		return { status: 'committed', reply, imageOrders, ...(stopped ? { stopped } : {}), spent: spendOf(ledgerRows, settings) };
	} catch (err) {
		deltas.push(tail);
		await deltas.flush().catch(() => undefined);
		const errorId = newErrorId();
		if (err instanceof LeaseLostError) {
			// Another runner holds the turn now and says how it ends; only the log hears of this one.
			const failure: TurnFailure = { reason: 'internal', errorId };
			logFailure({ sessionId: s.id, turnId: turn.id }, failure, err);
			return { status: 'failed', failure, spent: spendOf(ledgerRows, settings) };
		}
		// The player's cancel wins over whatever error the abort caused; then the deadline over its error.
		const cancelled = err instanceof TurnCancelledError || signal.aborted;
		const cause = !cancelled && deadline.aborted ? new TurnDeadlineError(deadlineMs) : err;
		const classified = classifyFailure(cause);
		const failure: TurnFailure = { reason: classified.reason, errorId };
		if (!cancelled) logFailure({ sessionId: s.id, turnId: turn.id }, failure, cause);
		const ended = await s.write(async (tx) => {
			const ok = await finishUncommitted(
				tx,
				turn.id,
				owner,
				cancelled ? { status: 'cancelled', error: 'Cancelled.' } : { status: 'failed', failure },
				now()
			);
			if (!ok) return false;
			await writeLedger(tx, turn.id, cancelled ? 'cancelled' : 'failed', ledgerRows);
			await appendEvent(
				tx,
				cancelled
					? { type: 'turn.cancelled', turnId: turn.id }
					: { type: 'turn.failed', turnId: turn.id, ...failure, retryable: classified.retryable }
			);
			return true;
		});
		if (ended) deps.bus.notify(s.id);
		const spent = spendOf(ledgerRows, settings);
		return cancelled ? { status: 'cancelled', spent } : { status: 'failed', failure, spent };
	}
}

/** The size of what a call sends, in bytes: the bound its worst-case input is priced at. */
function requestBytes(req: Pick<LlmRequest, 'system' | 'messages' | 'tools'>): number {
	return Buffer.byteLength(req.system) + Buffer.byteLength(JSON.stringify(req.messages)) + Buffer.byteLength(JSON.stringify(req.tools));
}

async function writeLedger(
	tx: SessionTx,
	turnId: string,
	outcome: 'committed' | 'failed' | 'cancelled',
	rows: readonly LedgerRow[]
): Promise<void> {
	if (rows.length > 0) await tx.insert(ledger).values(ledgerValues(turnId, outcome, rows));
}

/** What metering needs from the turn: the same for every call of it. */
interface Metering {
	deps: EngineDeps;
	s: SessionDb;
	turn: TurnRow;
	payer: Payer;
	guard: BudgetGuard;
	/** The turn's ledger rows, written with its commit (or its end). */
	rows: LedgerRow[];
	emit: (e: Parameters<typeof appendEvent>[1]) => Promise<void>;
}

/** One finished call, as it is metered. */
interface MeteredCall {
	reservationId: string | undefined;
	call: Pick<CallRecord, 'provider' | 'model' | 'latencyMs' | 'retries' | 'failure'>;
	usage: LlmUsage;
	at: number;
}

/** Meters one finished call: price it, settle its reservation with the real cost, fire each scope's warning once. */
async function meter(m: Metering, { reservationId, call, usage, at }: MeteredCall): Promise<void> {
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
	for (const w of m.guard.record(cost)) await warn(m.deps, m.s, m.turn, w, m.emit, at);
}

async function warn(
	deps: EngineDeps,
	s: SessionDb,
	turn: TurnRow,
	w: BudgetWarning,
	emit: (e: Parameters<typeof appendEvent>[1]) => Promise<void>,
	at: number
): Promise<void> {
	const key = w.scope === 'session' ? s.id : w.scope === 'user_day' ? turn.userId : w.scope === 'global_month' ? 'global' : turn.id;
	// The turn scope lives only in this guard; the others warn once across processes.
	if (w.scope !== 'turn' && !(await markWarned(deps.control.db, w.scope, key, w.period, at))) return;
	const amount = (n: number) => (w.unit === 'micros' ? `$${(n / 1_000_000).toFixed(6)}` : `${n} calls`);
	const message = `Budget warning (${w.scope}): ${amount(w.spent)} spent, warning at ${amount(w.warnAt)}${w.limit !== undefined ? `, limit ${amount(w.limit)}` : ''}.`;
	console.warn(`[kantera] ${message} session=${s.id}`);
	await emit({ type: 'budget.warning', scope: w.scope, message });
}

/**
 * Whether the signal has fired by now. Read through a call: a signal fires while the turn awaits, which
 * TypeScript's narrowing after an earlier `if (stop.aborted) throw` cannot see.
 */
function aborted(signal: AbortSignal): boolean {
	return signal.aborted;
}

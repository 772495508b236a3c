/**
 * One GM turn, start to finish: build the context from records, run the capped tool loop against the
 * LLM while streaming text into the event log, meter every call, and commit every staged write with
 * the play-log messages, stage cues and cost ledger in one transaction, or nothing at all.
 * The steps live beside it: request.ts (settings and prompt), tool-loop.ts (the calls and tools),
 * metering.ts (what the calls cost), commit.ts (the commit per turn kind, or the turn's end without one).
 */
import type { InStatement } from '@libsql/client';
import type { SessionDb } from '../db';
import { LlmError } from '../llm';
import { TurnCanon } from '../canon';
import { presentAfter } from '../stage';
import type { ToolContext } from '../tools';
import type { SessionEvent } from '../../types/events';
import { appendEventsQuery } from '../events';
import { DeltaWriter, textDelta } from './deltas';
import { Staging } from './staging';
import type { TurnRow } from './turns';
import { loadTurnStart, turnStartOf, type TurnStartReads } from './history';
import { TurnCancelledError } from './errors';
import { TurnDeadlineError } from './failure';
import { budgetFor, checkpointParts, playerParts, unfittedCall } from './request';
import { aborted, runToolLoop } from './tool-loop';
import { writeCheckpoint } from './checkpoint-parts';
import { commitTurn, endUncommitted } from './commit';
import { RESERVATION_GRACE_MS, spendOf, TurnMeter, type LedgerRow } from './metering';
import type { EngineDeps, TurnOutcome } from './types';

export type { EngineDeps, TurnOutcome } from './types';
export { MAX_OUTPUT_TOKENS, RESERVATION_GRACE_MS } from './metering';

/**
 * Runs one turn. `signal` is the player's cancel (or the runner stopping); the turn's own deadline
 * (KANTERA_TURN_TIMEOUT_S) is kept here and ends it as failed, timed out. `readAfterCommit`: reads
 * the caller wants right after the commit, run in the commit's own batch when it goes as one (their
 * results come back in the outcome; absent when the commit took the interactive way). `start`: what the
 * turn starts from, read already (with the claim: turnStartQueries).
 */
export async function executeTurn(
	deps: EngineDeps,
	s: SessionDb,
	turn: TurnRow,
	owner: string,
	signal: AbortSignal,
	options: { readAfterCommit?: readonly InStatement[]; start?: TurnStartReads } = {}
): Promise<TurnOutcome> {
	const now = deps.now ?? Date.now;
	const deadlineMs = deps.config.engine.turnTimeoutMs;
	const deadline = AbortSignal.timeout(deadlineMs);
	/** Everything the turn waits for (LLM calls, budget waits) stops on either. */
	const stop = AbortSignal.any([signal, deadline]);
	const halted = () => (signal.aborted ? new TurnCancelledError() : new TurnDeadlineError(deadlineMs));
	/** The LLM the turn ran on, once its settings are read: its spend is reported under it. */
	let ran: { provider?: string | undefined; model?: string | undefined } = {};
	const ledgerRows: LedgerRow[] = [];
	const deltas = new DeltaWriter(s, deps.bus, turn.id);
	const emit = async (event: SessionEvent) => {
		// Streamed text not yet in the log goes first, in the same transaction: one durable commit, same order.
		const text = await deltas.take();
		await s.writes.batch([text ? appendEventsQuery(s.writes, textDelta(turn.id, text), event) : appendEventsQuery(s.writes, event)]);
		deps.bus.notify(s.id);
	};
	/** Streamed text the commit writes itself; handed back to the writer if the turn fails instead. */
	let tail = '';
	/** What the calls cost, in the control database; what it holds unsent goes there before the turn ends. */
	let metering: TurnMeter | undefined;
	/** A player turn's canon guard; what it did is reported however the turn ends. */
	let canon: TurnCanon | undefined;
	const guarded = () => {
		const acted = canon?.outcome;
		return acted && (acted.rewrites > 0 || acted.stopped) ? { canon: acted } : {};
	};

	try {
		const start = options.start ? await turnStartOf(s.db, deps.config, options.start) : await loadTurnStart(s.db, deps.config);
		// Planned writes are numbered from what the turn started from, and the commit is guarded by it.
		const staging = new Staging(s, start.base);
		const parts = turn.kind === 'player' ? playerParts(deps, turn, start) : checkpointParts(deps, start, start.history, turn.input);
		// A player turn's words are checked against the canon before the player sees them (issue 27).
		canon = turn.kind === 'player' ? new TurnCanon(start.canon.source, start.canon.revealed, turn.input) : undefined;
		// The note rides with this turn's line only, after the prompt-cache prefix.
		const note = canon?.contextNote;
		if (note) parts.turn.splice(0, 1, { role: 'user', content: `${turn.input}\n\n${note}` });
		// At most one control-database batch: the first call's reservation, the budget scopes if any limit or
		// warning applies, and the player's tier if the turn was accepted without one (see TurnMeter.start).
		const begun = await TurnMeter.start({
			deps,
			s,
			turn,
			stored: start.settings,
			firstCall: unfittedCall(parts),
			rows: ledgerRows,
			emit,
			now,
			ttlMs: deadlineMs + RESERVATION_GRACE_MS
		});
		metering = begun.meter;
		const settings = begun.settings;
		ran = settings;
		if (!settings.provider || !settings.model)
			throw new LlmError('config', 'No LLM provider is configured for this session.', { retryable: false });
		const llm = { provider: settings.provider, model: settings.model };
		const provider = deps.provider(settings.provider);
		if (turn.kind !== 'player') await emit({ type: 'checkpoint.started', turnId: turn.id });
		const toolCtx: ToolContext = {
			read: (fn) => staging.read(fn),
			write: (fn) => staging.write(fn),
			embedder: deps.embedder,
			language: settings.language,
			cues: [],
			places: [],
			choices: []
		};

		// What the model's context holds, its reply included: every call is fitted within it.
		const budget = await budgetFor(deps, llm, provider, stop);
		const loop = { deps, turn, provider, settings: llm, toolCtx, deltas, metering, emit, stop, halted, now, canon };
		const { reply, rounds, stopped } =
			turn.kind === 'player'
				? await runToolLoop({ ...loop, prompt: { parts, budget, count: deps.countTokens } })
				: await writeCheckpoint(loop, { start, budget, instruction: turn.input, language: settings.language });
		// The last call's settle: durable before its reply is committed.
		await metering.close();

		// Each write transaction is a durable commit (an fsync, ~4 ms on a VM disk): the last streamed
		// text goes into the turn's commit, right before turn.committed, instead of a transaction of its own.
		tail = await deltas.take();
		if (aborted(stop)) throw halted();
		if (turn.kind !== 'player' && !reply) throw new LlmError('protocol', 'The GM wrote no hand-off summary.', { retryable: true });
		// A whisper's answer is its whisperer's alone, but the stage is everyone's (issue 25): it keeps its text and choices, not its cues.
		if (turn.whisperBy !== null) toolCtx.cues.splice(0);

		const { imageOrders, after } = await commitTurn({
			deps,
			s,
			staging,
			turn,
			owner,
			settings: llm,
			reply,
			rounds,
			stopped,
			tail,
			ledgerRows,
			toolCtx,
			// Who stands on the stage at the end of the turn heard it: the play-log lines are theirs to know.
			present: turn.kind === 'player' ? presentAfter(start.stage, toolCtx.cues) : [],
			now,
			after: options.readAfterCommit
		});
		deps.bus.notify(s.id);
		return {
			status: 'committed',
			reply,
			imageOrders,
			...(stopped ? { stopped } : {}),
			...(after ? { readAfterCommit: after } : {}),
			...guarded(),
			spent: spendOf(ledgerRows, ran)
		};
	} catch (err) {
		deltas.push(tail);
		await deltas.flush().catch(() => undefined);
		// What the calls cost is counted whatever ends the turn (once: a batch that failed is not sent again).
		await metering
			?.close()
			.catch((e: unknown) =>
				console.error(`[kantera] could not settle the budget of turn ${turn.id}:`, e instanceof Error ? e.message : e)
			);
		const ended = await endUncommitted({ deps, s, turn, owner, signal, deadline, deadlineMs, ledgerRows, settings: ran, now }, err);
		return { ...ended, ...guarded() };
	}
}

/**
 * How a turn ends. Committed: every staged write with the play-log messages (a player turn) or the
 * summary (a checkpoint or hand-off), the stage cues, image orders and cost ledger, in one transaction
 * noted in the undo log (a player turn's as one write batch when it can be). Failed or cancelled: its
 * staged writes dropped, only its ledger and its end written.
 */
import type { InStatement, ResultSet } from '@libsql/client';
import type { SessionDb, SessionTx } from '../db';
import { log, summaries } from '../records';
import * as stage from '../stage';
import type { ProviderName } from '../llm';
import { exchangeTokensOf, type ReplyRound } from '../context-window';
import type { ToolContext } from '../tools';
import type { SessionEvent, TurnFailure } from '../../types/events';
import { appendEvent, pruneStreamingEvents, DELTA_RETENTION_MS, PRUNE_EVERY_COMMITS } from '../events';
import { textDelta } from './deltas';
import type { Staging } from './staging';
import { finishedBeforeQuery, finishUncommitted, markCommitted, type Committed, type TurnRow } from './turns';
import { nextSeq } from './history';
import { applyPendingModel } from './handoff';
import { LeaseLostError, TurnCancelledError } from './errors';
import { classifyFailure, logFailure, newErrorId, TurnDeadlineError } from './failure';
import { spendOf, writeLedger, type LedgerRow } from './metering';
import { playerCommitTail } from './commit-batch';
import type { EngineDeps, TurnOutcome } from './types';

/** What a finished tool loop commits. */
export interface TurnCommit {
	deps: EngineDeps;
	s: SessionDb;
	staging: Staging;
	turn: TurnRow;
	owner: string;
	settings: { provider: ProviderName; model: string };
	reply: string;
	/** The rounds that wrote the reply, with the usage their calls reported: what the exchange's tokens come from. */
	rounds: readonly ReplyRound[];
	stopped: string | undefined;
	/** Streamed text not yet in the log: the commit writes it, right before the turn's own event. */
	tail: string;
	ledgerRows: readonly LedgerRow[];
	toolCtx: Pick<ToolContext, 'cues' | 'choices'>;
	/** The characters on stage at the end of a player turn: they witnessed its lines. */
	present: readonly string[];
	now: () => number;
	/** Reads to run at the end of a one-batch commit, on what it committed (see Staging.commitBatch). */
	after?: readonly InStatement[] | undefined;
}

/** What a commit did: the image orders it made the turn's, and the results of `after` when it ran them. */
export interface TurnCommitted {
	imageOrders: number;
	after?: ResultSet[];
}

/**
 * Commits the turn, or throws (LeaseLostError when another runner holds it now). Returns the image
 * orders it made its own (and what `after` read, on the one-batch path). A player turn's commit goes as one write batch (one round trip, one durable
 * commit: turn/commit-batch.ts) unless a record changed since its staged writes ran; then, and for the
 * other kinds, the interactive way.
 */
export async function commitTurn(c: TurnCommit): Promise<TurnCommitted> {
	const { deps, turn, owner, settings, reply, stopped } = c;
	const finishedAt = c.now();
	const committed: Committed & { finishedAt: number } = {
		reply,
		stopped: stopped ?? null,
		// What the checkpoint threshold adds up: the reply as the provider counted it where it said (see usage-tokens.ts).
		tokens: turn.kind === 'player' ? exchangeTokensOf(turn.input, c.rounds, deps.countTokens) : null,
		provider: settings.provider,
		model: settings.model,
		finishedAt
	};
	if (turn.kind === 'player') {
		const batched = await c.staging.commitBatch(
			(base) =>
				playerCommitTail(c.s.db, base, {
					turnId: turn.id,
					owner,
					input: turn.input,
					reply,
					tail: c.tail ? textDelta(turn.id, c.tail) : undefined,
					cues: c.toolCtx.cues,
					choices: c.toolCtx.choices,
					present: c.present,
					ledger: c.ledgerRows,
					turn: committed,
					committed: (messageIds) => exchangeEvent(c, messageIds)
				}),
			{ turnId: turn.id, owner, undoAs: turn.id, after: c.after }
		);
		if (batched) return { imageOrders: batched.value.imageOrders, after: batched.after };
	}
	let imageOrders = 0;
	await c.staging.commit(
		async (tx) => {
			if (c.tail) await appendEvent(tx, textDelta(turn.id, c.tail));
			const seq = await nextSeq(tx);
			if (seq % PRUNE_EVERY_COMMITS === 0) await pruneStreamingEvents(tx, finishedBeforeQuery(tx, finishedAt - DELTA_RETENTION_MS));
			const event = turn.kind === 'player' ? await writeExchange(tx, c) : await writeSummary(tx, c);
			// Orders placed by this turn's tools become this turn's: the image runner starts them after commit.
			imageOrders = await stage.imageOrders.claimForTurn(tx, turn.id);
			await writeLedger(tx, turn.id, 'committed', c.ledgerRows);
			const held = await markCommitted(tx, turn.id, owner, committed, seq);
			if (!held) throw new LeaseLostError(turn.id);
			await appendEvent(tx, event);
			// Every record the commit wrote is noted in the undo log with it, checkpoints and hand-offs too:
			// an undo takes back the turn and whatever summary or model switch committed after it.
		},
		{ undoAs: turn.id }
	);
	return { imageOrders };
}

/** A player turn's records: the player's message, the GM's reply with its stage cues and choices. Returns the event announcing them. */
async function writeExchange(tx: SessionTx, c: TurnCommit): Promise<SessionEvent> {
	const { turn, reply, toolCtx } = c;
	const messageIds: number[] = [];
	const player = await log.append(tx, { role: 'player', body: turn.input, turnId: turn.id, witnesses: c.present });
	messageIds.push(player.id);
	if (reply) {
		const gm = await log.append(tx, { role: 'gm', body: reply, turnId: turn.id, witnesses: c.present });
		messageIds.push(gm.id);
		await stage.cues.save(tx, { turnId: turn.id, messageId: gm.id, cues: toolCtx.cues });
		if (toolCtx.choices.length > 0) await stage.choices.save(tx, { messageId: gm.id, options: toolCtx.choices });
	}
	return exchangeEvent(c, messageIds);
}

/** The event announcing a player turn's messages, committed or batched. */
function exchangeEvent({ turn, reply, stopped, toolCtx }: TurnCommit, messageIds: number[]): SessionEvent {
	const offered = reply && toolCtx.choices.length > 0 ? { choices: [...toolCtx.choices] } : {};
	return {
		type: 'turn.committed',
		turnId: turn.id,
		reply,
		messageIds,
		...(stopped ? { stopped } : {}),
		...offered
	};
}

/** A checkpoint's or hand-off's record: the summary (and a hand-off's pending model switch). Returns the event announcing it. */
async function writeSummary(tx: SessionTx, { turn, reply }: TurnCommit): Promise<SessionEvent> {
	const summaryId = (await summaries.append(tx, { body: reply })).id;
	if (turn.kind === 'handoff') await applyPendingModel(tx);
	return { type: 'checkpoint.done', turnId: turn.id, summaryId };
}

/** What ending a turn without a commit needs. */
export interface TurnEnd {
	deps: EngineDeps;
	s: SessionDb;
	turn: TurnRow;
	owner: string;
	/** The player's cancel (or the runner stopping) and the turn's deadline: which fired decides how it ends. */
	signal: AbortSignal;
	deadline: AbortSignal;
	deadlineMs: number;
	ledgerRows: readonly LedgerRow[];
	settings: { provider?: string | undefined; model?: string | undefined };
	now: () => number;
}

/** Ends a turn that threw as cancelled or failed (its ledger and its event written), unless another runner holds it now. */
export async function endUncommitted(e: TurnEnd, err: unknown): Promise<TurnOutcome> {
	const { deps, s, turn, owner, signal, deadline, deadlineMs, ledgerRows, settings, now } = e;
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

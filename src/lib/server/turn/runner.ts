/**
 * The turn runner: executes accepted turns outside the request that accepted them, one at a time per
 * session. Each turn runs under a lease in the session database, so two processes never run the same
 * turn; a turn whose runner died is found with an expired lease and marked interrupted.
 *
 * Around each turn it embeds what changed (player edits before, the turn's records after, in bounded
 * batches) and, when the history since the last checkpoint passes the threshold, runs a checkpoint.
 */
import { hostname } from 'node:os';
import type { InStatement, ResultSet } from '@libsql/client';
import { newId, SessionDbMissingError, toStatement, type SessionDb, type SessionDbPool } from '../db';
import { embedPending, embedReads } from '../search';
import { checkpointDue, checkpointInstruction, type Exchange } from '../context-window';
import { summaries } from '../records';
import { appendEvent } from '../events';
import { claimNext, requestCancel, DEFAULT_LEASE, type LeaseTiming } from './leases';
import { anyRunning, anyUnfinishedQuery, insertTurn, lastPlayerTurn, renewLease, type TurnRow } from './turns';
import { clearWork, forgetWork, markWork, sessionsWithWork, youngNoteUntil } from './work';
import { ProcessScheduler, SessionLoop, type Scheduler } from '../jobs';
import { executeTurn, type EngineDeps, type TurnOutcome } from './engine';
import { historyReads, type TurnStartReads } from './history';
import { readSettings } from '../session-setup';
import { recordCanonGuard } from '../budget';
import { logLine, observeCanonGuard, observeTurn, type RunnerLoad } from '../ops';

/** Embedding batches before and after a turn; the rest waits for the next turn (never blocks play). */
export const EMBED_BATCHES_PER_TURN = 4;
/** A lease is looked at again this long after it should have run out, so the look finds it expired. */
export const LEASE_SWEEP_MARGIN_MS = 50;

export interface RunnerDeps extends EngineDeps {
	sessions: SessionDbPool;
	/** The image job runner, kicked after a commit that made image orders: a turn's orders start only then. */
	images?: { kick(sessionId: string): void };
	/** Lease timings; production's by default. */
	lease?: Partial<LeaseTiming>;
	/** What keeps the work alive past the request and runs it later; a server process's by default. */
	scheduler?: Scheduler;
	/**
	 * A player's turn ended without a commit (failed or cancelled): at a shared table in round order the seat
	 * that sent it keeps its turn (wired in app.ts to sessions' `keepTurnAfterFailure`). Best effort.
	 */
	uncommitted?: (sessionId: string, turn: TurnRow) => Promise<void>;
}

export class TurnRunner {
	readonly owner = `${hostname()}:${process.pid}:${newId(8)}`;
	private readonly controllers = new Map<string, AbortController>();
	/**
	 * The sessions being worked on. Its wake-ups are the sessions to look at again later: another
	 * runner's turn runs there (until its lease runs out), or the note that they have work is too young
	 * to drop yet.
	 */
	private readonly loop: SessionLoop;
	private readonly scheduler: Scheduler;
	private readonly lease: LeaseTiming;
	private resuming: Promise<void> = Promise.resolve();

	constructor(private readonly deps: RunnerDeps) {
		this.lease = { ...DEFAULT_LEASE, ...deps.lease };
		this.scheduler = deps.scheduler ?? new ProcessScheduler();
		this.loop = new SessionLoop({ name: 'turn runner', scheduler: this.scheduler, drain: (id) => this.drain(id) });
	}

	/**
	 * At start-up: works through every session that may have unfinished turns (accepted ones run;
	 * those whose runner died are marked interrupted once their lease has run out, without waiting
	 * for anyone to look at the session).
	 */
	resume(): Promise<void> {
		this.resuming = sessionsWithWork(this.deps.control.db)
			.then((ids) => {
				for (const id of ids) this.kick(id);
			})
			.catch((err: unknown) => console.error('[kantera] could not resume unfinished turns:', err instanceof Error ? err.message : err));
		return this.resuming;
	}

	/** Makes sure the session's queue is being worked on. Safe to call any number of times. */
	kick(sessionId: string): void {
		this.loop.kick(sessionId);
	}

	/** Cancels a turn: an accepted one at once, a running one as soon as its runner sees it. */
	async cancel(s: SessionDb, turnId: string): Promise<TurnRow | undefined> {
		const row = await s.write((tx) => requestCancel(tx, turnId, Date.now()));
		this.controllers.get(turnId)?.abort();
		if (row) this.deps.bus.notify(s.id);
		return row;
	}

	/** What this runner has in hand now, for the metrics' queue gauges. */
	load(): RunnerLoad {
		return { ...this.loop.counts(), running: this.controllers.size };
	}

	/** Resolves when no session is being worked on (tests, shutdown). */
	idle(): Promise<void> {
		return this.loop.idle();
	}

	async stop(): Promise<void> {
		this.loop.stop();
		for (const c of this.controllers.values()) c.abort();
		await this.resuming;
		await this.idle();
	}

	private async drain(sessionId: string): Promise<void> {
		try {
			await this.drainOpen(sessionId);
		} catch (err) {
			// Deleted since it was noted (or kicked): its note goes, so no later start-up looks for it again.
			if (!(err instanceof SessionDbMissingError) || err.sessionId !== sessionId) throw err;
			await forgetWork(this.deps.control.db, sessionId);
		}
	}

	private async drainOpen(sessionId: string): Promise<void> {
		await this.deps.sessions.use(sessionId, async (s) => {
			/** What the last turn's commit read for this round, in its own batch (none: the round reads it). */
			let known: NextRound | undefined;
			for (;;) {
				if (this.loop.stopped) return;
				const round = known ?? (await this.readRound(s));
				known = undefined;
				await this.embed(s, round.embedReads);
				const checkpoint = await this.checkpointIfDue(s, round.history);
				const checkedAt = Date.now();
				// No turn waiting or running (read with the round, or in the commit's batch: its own turn is
				// committed): nothing to claim. A turn accepted after that read kicks the loop again.
				if (!checkpoint && !round.unfinished) {
					await this.settle(s, checkedAt, undefined, false, round.acceptedAt);
					return;
				}
				const { turn, nextExpiry, unfinished, start } = await claimNext(s, this.owner, checkedAt, this.lease.leaseMs);
				if (!turn) {
					await this.settle(s, checkedAt, nextExpiry, unfinished);
					return;
				}
				this.deps.bus.notify(s.id);
				// Player turns were noted when accepted; a model switch's hand-off is noted here.
				if (turn.kind !== 'player') await markWork(this.deps.control.db, s.id, checkedAt);
				const { outcome, after } = await this.runLeased(s, turn, { readAfter: nextRoundReads(s), start });
				if (outcome.status === 'committed' && after) known = { ...after, acceptedAt: turn.kind === 'player' ? turn.createdAt : undefined };
			}
		});
	}

	/** The round's reads when no commit did them: the embedding queues, the history and whether turns wait, in one batch. */
	private async readRound(s: SessionDb): Promise<NextRound> {
		return readNextRound(s, await s.batch(nextRoundReads(s), 'read'));
	}

	/**
	 * Nothing to claim: if another runner's turn is running, look again when its lease runs out (it
	 * is marked interrupted then if that runner died); if nothing is left at all, forget the session
	 * (or look again once its note of work is old enough to drop). `acceptedAt`: when the player turn
	 * this drain just committed was accepted.
	 */
	private async settle(
		s: SessionDb,
		checkedAt: number,
		expiry: number | undefined,
		unfinished: boolean,
		acceptedAt?: number
	): Promise<void> {
		if (expiry !== undefined) {
			this.loop.wakeAt(s.id, expiry + LEASE_SWEEP_MARGIN_MS);
			return;
		}
		if (unfinished) return;
		// The note of work was written when the turn just committed was accepted (or later): while that
		// is recent, it is too young to drop, and reading it says only that. The look an earlier turn's
		// settle set for its own (older) note is for nothing now: no turn runs, and this note is newer.
		const young = youngNoteUntil(acceptedAt, checkedAt);
		if (young !== undefined) {
			this.loop.wakeAt(s.id, young + LEASE_SWEEP_MARGIN_MS, { replace: true });
			return;
		}
		const again = await clearWork(this.deps.control.db, s.id, checkedAt);
		if (again !== undefined) this.loop.wakeAt(s.id, again + LEASE_SWEEP_MARGIN_MS);
	}

	private async uncommitted(sessionId: string, turn: TurnRow): Promise<void> {
		try {
			await this.deps.uncommitted?.(sessionId, turn);
		} catch (err) {
			// The turn has ended as it should; only the round order did not hear of it.
			console.warn(`[kantera] after turn ${turn.id} in session ${sessionId}: ${err instanceof Error ? err.message : String(err)}`);
		}
	}

	/** Embeds what is queued, starting from the first round's reads (`first`, already run). */
	private async embed(s: SessionDb, first: ResultSet[]): Promise<void> {
		try {
			await embedPending(s, this.deps.embedder, { maxBatches: EMBED_BATCHES_PER_TURN, first });
		} catch (err) {
			// Embedding is best effort: recall still works through the keyword side.
			console.warn(`[kantera] embedding for session ${s.id} failed: ${err instanceof Error ? err.message : String(err)}`);
		}
	}

	/** Runs a checkpoint when the history since the last one (read with the round) has passed the threshold. */
	private async checkpointIfDue(s: SessionDb, history: Exchange[]): Promise<TurnOutcome | undefined> {
		if (!checkpointDue(history, this.deps.config.engine.memory, this.deps.countTokens)) return undefined;
		const last = await lastPlayerTurn(s.db);
		if (!last) return undefined;
		const settings = await readSettings(s.db, this.deps.config);
		const previous = await summaries.latest(s.db);
		const instruction = checkpointInstruction(settings.language, Boolean(previous?.body.trim()));
		const now = Date.now();
		const turn = await s.write(async (tx) => {
			if (await anyRunning(tx)) return undefined;
			// Run at once, under this runner's lease: it never waits in the queue.
			const row = await insertTurn(tx, {
				kind: 'checkpoint',
				userId: last.userId,
				input: instruction,
				now,
				lease: { owner: this.owner, expiresAt: now + this.lease.leaseMs }
			});
			await appendEvent(tx, { type: 'turn.started', turnId: row.id });
			return row;
		});
		if (!turn) return undefined;
		await markWork(this.deps.control.db, s.id, now);
		const { outcome } = await this.runLeased(s, turn);
		if (outcome.status !== 'committed')
			console.warn(
				`[kantera] checkpoint in session ${s.id} did not commit: ${
					outcome.failure
						? `${outcome.failure.reason}, error \
id ${outcome.failure.errorId}`
						: outcome.status
				}`
			);
		return outcome;
	}

	/** The session's counters of what the canon guard did (the owner's spend panel, /admin/usage) and the metrics. */
	private async countCanonGuard(sessionId: string, acted: { rewrites: number; stopped: boolean }): Promise<void> {
		observeCanonGuard(acted);
		await recordCanonGuard(this.deps.control.db, sessionId, acted).catch((err: unknown) => {
			console.error(`[kantera] could not count the canon guard of session ${sessionId}:`, err instanceof Error ? err.message : err);
		});
	}

	/**
	 * Runs a claimed turn under its lease. `readAfter`: the next round's reads (nextRoundReads), run in
	 * the commit's own batch when it goes as one; `after` is what they read then. `start`: what the turn
	 * starts from, read with its claim.
	 */
	private async runLeased(
		s: SessionDb,
		turn: TurnRow,
		reads: { readAfter?: InStatement[]; start?: TurnStartReads } = {}
	): Promise<{ outcome: TurnOutcome; after?: NextRound }> {
		const controller = new AbortController();
		this.controllers.set(turn.id, controller);
		const stopRenewing = this.scheduler.every(this.lease.renewMs, () => {
			void s
				.write((tx) => renewLease(tx, turn.id, this.owner, Date.now(), this.lease.leaseMs))
				.then((lease) => {
					if (!lease.held || lease.cancelRequested) controller.abort();
				})
				.catch(() => undefined);
		});
		const started = performance.now();
		try {
			const outcome = await executeTurn(this.deps, s, turn, this.owner, controller.signal, {
				readAfterCommit: reads.readAfter,
				start: reads.start
			});
			noteTurn(s.id, turn, outcome, performance.now() - started);
			if (outcome.canon) await this.countCanonGuard(s.id, outcome.canon);
			// Only a commit that made image orders its own gives the image runner work (no look otherwise).
			if (outcome.status === 'committed' && (outcome.imageOrders ?? 0) > 0) this.deps.images?.kick(s.id);
			if (outcome.status !== 'committed' && turn.kind === 'player') await this.uncommitted(s.id, turn);
			const read = outcome.readAfterCommit;
			return { outcome, ...(read ? { after: readNextRound(s, read) } : {}) };
		} finally {
			stopRenewing();
			this.controllers.delete(turn.id);
		}
	}
}

/** What a round of the runner's loop starts from: the embedding queues, the history and (after a commit) whether turns wait. */
interface NextRound {
	/** The first embedding round's reads (embedReads). */
	embedReads: ResultSet[];
	/** The history since the last checkpoint, for the checkpoint threshold. */
	history: Exchange[];
	/** Whether a turn was waiting or running. */
	unfinished: boolean;
	/** When the player turn just committed was accepted (see `settle`). */
	acceptedAt?: number | undefined;
}

/** A round's reads: the embedding queues, the history since the last checkpoint, whether any turn waits or runs. */
function nextRoundReads(s: SessionDb): InStatement[] {
	return [...embedReads(), ...historyReads(s.db).statements, toStatement(anyUnfinishedQuery(s.db))];
}

function readNextRound(s: SessionDb, results: ResultSet[]): NextRound {
	const embeds = embedReads().length;
	const history = historyReads(s.db);
	const unfinished = results[embeds + history.statements.length];
	if (!unfinished) throw new Error('the runner round read no turn status');
	return {
		embedReads: results.slice(0, embeds),
		history: history.of(results.slice(embeds, embeds + history.statements.length)),
		unfinished: unfinished.rows.length > 0
	};
}

/** The turn's line in the log and its metrics: ids, outcome, duration, tokens and cost, never its text. */
function noteTurn(sessionId: string, turn: TurnRow, outcome: TurnOutcome, ms: number): void {
	const durationMs = Math.round(ms);
	observeTurn({ kind: turn.kind, status: outcome.status, durationMs });
	const spent = outcome.spent;
	logLine('turn', {
		sessionId,
		turnId: turn.id,
		kind: turn.kind,
		status: outcome.status,
		durationMs,
		provider: spent.provider,
		model: spent.model,
		calls: spent.calls,
		inputTokens: spent.inputTokens,
		cachedInputTokens: spent.cachedInputTokens,
		outputTokens: spent.outputTokens,
		costUsd: spent.costMicros / 1_000_000,
		reason: outcome.failure?.reason,
		errorId: outcome.failure?.errorId,
		stopped: outcome.stopped
	});
}

/**
 * The turn runner: executes accepted turns outside the request that accepted them, one at a time per
 * session. Each turn runs under a lease in the session database, so two processes never run the same
 * turn; a turn whose runner died is found with an expired lease and marked interrupted.
 *
 * Around each turn it embeds what changed (player edits before, the turn's records after, in bounded
 * batches) and, when the history since the last checkpoint passes the threshold, runs a checkpoint.
 */
import { hostname } from 'node:os';
import { desc, eq } from 'drizzle-orm';
import { newId, sessionSchema, type SessionDb, type SessionDbPool } from '../db';
import { embedPending } from '../search';
import { checkpointDue, checkpointInstruction } from '../memory';
import { summaries } from '../records';
import { appendEvent } from './events';
import { claimNext, renewLease, requestCancel, DEFAULT_LEASE, type LeaseTiming, type TurnRow } from './leases';
import { clearWork, markWork, sessionsWithWork } from './work';
import { ProcessScheduler, SessionLoop, type Scheduler } from '../jobs';
import { executeTurn, type EngineDeps, type TurnOutcome } from './engine';
import { historySinceCheckpoint } from './history';
import { readSettings } from './settings';
import { logLine, observeTurn, type RunnerLoad } from '../ops';

const { turns } = sessionSchema;

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
	/** Sessions whose last commit, in the drain running now, ran an embedding round that left the queues empty. */
	private readonly justEmbedded = new Set<string>();
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
		this.justEmbedded.delete(sessionId);
		await this.deps.sessions.use(sessionId, async (s) => {
			for (;;) {
				if (this.loop.stopped) return;
				// Right after a commit's own embedding round emptied the queues, a second look finds nothing.
				if (!this.justEmbedded.delete(s.id)) await this.embed(s);
				await this.checkpointIfDue(s);
				const checkedAt = Date.now();
				const { turn, nextExpiry, unfinished } = await claimNext(s, this.owner, checkedAt, this.lease.leaseMs);
				if (!turn) {
					await this.settle(s, checkedAt, nextExpiry, unfinished);
					return;
				}
				this.deps.bus.notify(s.id);
				// Player turns were noted when accepted; a model switch's hand-off is noted here.
				if (turn.kind !== 'player') await markWork(this.deps.control.db, s.id, checkedAt);
				await this.runLeased(s, turn);
			}
		});
	}

	/**
	 * Nothing to claim: if another runner's turn is running, look again when its lease runs out (it
	 * is marked interrupted then if that runner died); if nothing is left at all, forget the session
	 * (or look again once its note of work is old enough to drop).
	 */
	private async settle(s: SessionDb, checkedAt: number, expiry: number | undefined, unfinished: boolean): Promise<void> {
		if (expiry !== undefined) {
			this.loop.wakeAt(s.id, expiry + LEASE_SWEEP_MARGIN_MS);
			return;
		}
		if (unfinished) return;
		const again = await clearWork(this.deps.control.db, s.id, checkedAt);
		if (again !== undefined) this.loop.wakeAt(s.id, again + LEASE_SWEEP_MARGIN_MS);
	}

	/** Whether the queues were left empty. */
	private async embed(s: SessionDb): Promise<boolean> {
		try {
			return (await embedPending(s, this.deps.embedder, { maxBatches: EMBED_BATCHES_PER_TURN })).drained;
		} catch (err) {
			// Embedding is best effort: recall still works through the keyword side.
			console.warn(`[kantera] embedding for session ${s.id} failed: ${err instanceof Error ? err.message : String(err)}`);
			return false;
		}
	}

	private async checkpointIfDue(s: SessionDb): Promise<TurnOutcome | undefined> {
		const history = await historySinceCheckpoint(s.db);
		if (!checkpointDue(history, this.deps.config.engine.memory, this.deps.countTokens)) return undefined;
		const [last] = await s.db
			.select({ userId: turns.userId })
			.from(turns)
			.where(eq(turns.kind, 'player'))
			.orderBy(desc(turns.createdAt))
			.limit(1);
		if (!last) return undefined;
		const settings = await readSettings(s.db, this.deps.config);
		const previous = await summaries.latest(s.db);
		const instruction = checkpointInstruction(settings.language, Boolean(previous?.body.trim()));
		const now = Date.now();
		const turn = await s.write(async (tx) => {
			const [running] = await tx.select({ id: turns.id }).from(turns).where(eq(turns.status, 'running')).limit(1);
			if (running) return undefined;
			const id = newId();
			const [row] = await tx
				.insert(turns)
				.values({
					id,
					idempotencyKey: `checkpoint:${id}`,
					kind: 'checkpoint',
					userId: last.userId,
					input: instruction,
					status: 'running',
					leaseOwner: this.owner,
					leaseExpiresAt: now + this.lease.leaseMs,
					createdAt: now,
					startedAt: now
				})
				.returning();
			if (row) await appendEvent(tx, { type: 'turn.started', turnId: id });
			return row;
		});
		if (!turn) return undefined;
		await markWork(this.deps.control.db, s.id, now);
		const outcome = await this.runLeased(s, turn);
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

	private async runLeased(s: SessionDb, turn: TurnRow): Promise<TurnOutcome> {
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
			const outcome = await executeTurn(this.deps, s, turn, this.owner, controller.signal);
			noteTurn(s.id, turn, outcome, performance.now() - started);
			if (outcome.status === 'committed') {
				// Only a commit that made image orders its own gives the image runner work (no look otherwise).
				if ((outcome.imageOrders ?? 0) > 0) this.deps.images?.kick(s.id);
				if (await this.embed(s)) this.justEmbedded.add(s.id);
				else this.justEmbedded.delete(s.id);
			}
			return outcome;
		} finally {
			stopRenewing();
			this.controllers.delete(turn.id);
		}
	}
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

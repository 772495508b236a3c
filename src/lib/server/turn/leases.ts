/**
 * Turn leases: the row that says which runner executes a turn and until when. A runner renews its
 * lease while it works; a lease that expires means its process died, and the turn is marked
 * interrupted. Nothing ever sends an interrupted turn to the LLM again by itself.
 */
import { and, asc, eq, inArray, lt, min, notExists, sql, type SQL } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec, type SessionTx } from '../db';
import type { TurnFailure } from '../../types/events';
import { appendEvent } from './events';

const { turns } = sessionSchema;

/** How long a lease lasts without renewal. */
export const LEASE_MS = 15_000;
/** How often a runner renews its leases (well inside LEASE_MS). */
export const LEASE_RENEW_MS = 5_000;

/** A runner's lease timings; tests shorten them to watch a dead runner's lease run out. */
export interface LeaseTiming {
	leaseMs: number;
	renewMs: number;
}

export const DEFAULT_LEASE: Readonly<LeaseTiming> = Object.freeze({ leaseMs: LEASE_MS, renewMs: LEASE_RENEW_MS });

export type TurnRow = typeof turns.$inferSelect;

const INTERRUPTED = {
	status: 'interrupted',
	error: 'The server stopped while this turn was running. Nothing from it was saved; send it again if you want.',
	leaseOwner: null,
	leaseExpiresAt: null
} as const;

/** Marks turns whose lease expired as interrupted (with an event). Returns their ids. */
export async function interruptExpired(tx: SessionTx, now: number): Promise<string[]> {
	const expired = await tx
		.update(turns)
		.set({ ...INTERRUPTED, finishedAt: now })
		.where(and(eq(turns.status, 'running'), lt(turns.leaseExpiresAt, now)))
		.returning({ id: turns.id });
	for (const t of expired) await appendEvent(tx, { type: 'turn.interrupted', turnId: t.id });
	return expired.map((t) => t.id);
}

/**
 * Reads a turn as it stands now: one still marked running whose lease ran out belongs to a runner
 * that died, so it is marked interrupted first (a client that only polls must see it end).
 * Returns undefined for an unknown id; `interrupted` says whether this read wrote anything.
 */
export async function readTurn(s: SessionDb, turnId: string, now: number): Promise<{ turn: TurnRow | undefined; interrupted: boolean }> {
	const [row] = await s.db.select().from(turns).where(eq(turns.id, turnId));
	if (!row || row.status !== 'running' || row.leaseExpiresAt === null || row.leaseExpiresAt >= now)
		return { turn: row, interrupted: false };
	const interrupted = await s.write((tx) => interruptExpired(tx, now));
	const [fresh] = await s.db.select().from(turns).where(eq(turns.id, turnId));
	return { turn: fresh, interrupted: interrupted.length > 0 };
}

/**
 * The player's or model-switch turn that is accepted or running, if any: one at a time per session.
 * A checkpoint is the harness's own work, so a player may send the next turn while it runs; that
 * turn simply waits in the queue behind it.
 */
export async function activeTurn(exec: SessionExec): Promise<TurnRow | undefined> {
	const [row] = await exec
		.select()
		.from(turns)
		.where(and(inArray(turns.status, ['accepted', 'running']), inArray(turns.kind, ['player', 'handoff'])))
		.orderBy(asc(turns.createdAt))
		.limit(1);
	return row;
}

/**
 * Whether the session has turn work for a runner now, as one SQL expression (1 or 0): a turn accepted
 * and not yet claimed, or one still marked running whose lease ran out (its runner died). A turn
 * running under a live lease is its runner's business. For a cheap look before waking the runner.
 */
export function turnsWaiting(now: number): SQL {
	return sql`exists (select 1 from ${turns} where ${turns.status} = 'accepted' or (${turns.status} = 'running' and ${turns.leaseExpiresAt} < ${now}))`;
}

/** What a claim found: the turn it claimed, if any, and what the runner needs to know when it found none. */
export interface Claim {
	turn: TurnRow | undefined;
	/** When the earliest lease of a running turn runs out (another runner's, when nothing was claimed). */
	nextExpiry: number | undefined;
	/** Whether turns are still waiting or running. */
	unfinished: boolean;
}

/** An event row of `type` for each turn `where` selects, as appendEvent writes it (same JSON). */
export function eventsFor(type: 'turn.interrupted' | 'turn.started', now: number, where: ReturnType<typeof sql>) {
	return sql`INSERT INTO events (turn_id, type, data, created_at)
		SELECT id, ${type}, json_object('type', ${type}, 'turnId', id), ${now} FROM turns WHERE ${where} ORDER BY created_at, id`;
}

/** interruptExpired as two queries of a write batch: the events, then the turns marked interrupted. */
export function interruptExpiredQueries(s: Pick<SessionDb, 'writes'>, now: number) {
	const w = s.writes;
	return [
		w.run(eventsFor('turn.interrupted', now, sql`status = 'running' AND lease_expires_at < ${now}`)),
		w
			.update(turns)
			.set({ ...INTERRUPTED, finishedAt: now })
			.where(and(eq(turns.status, 'running'), lt(turns.leaseExpiresAt, now)))
	] as const;
}

/**
 * Claims the oldest accepted turn for `owner`, unless another turn of the session is running under a
 * live lease; turns whose lease ran out are marked interrupted first. The status change accepted →
 * running is the single point that makes a turn run once: it is one conditional UPDATE, in one write
 * batch with its events and the reads a runner needs when nothing was claimed (one round trip).
 */
export async function claimNext(s: SessionDb, owner: string, now: number, leaseMs = LEASE_MS): Promise<Claim> {
	const w = s.writes;
	const oldest = w.select({ id: turns.id }).from(turns).where(eq(turns.status, 'accepted')).orderBy(asc(turns.createdAt)).limit(1);
	const [, , claimed, , [expiry], unfinished] = await w.batch([
		...interruptExpiredQueries(s, now),
		w
			.update(turns)
			.set({ status: 'running', leaseOwner: owner, leaseExpiresAt: now + leaseMs, startedAt: now })
			.where(
				and(
					sql`${turns.id} = (${oldest})`,
					eq(turns.status, 'accepted'),
					notExists(w.select({ id: turns.id }).from(turns).where(eq(turns.status, 'running')))
				)
			)
			.returning(),
		// The claimed turn is the one running under this owner's lease taken now (none if the claim changed nothing).
		w.run(eventsFor('turn.started', now, sql`status = 'running' AND lease_owner = ${owner} AND started_at = ${now} AND changes() > 0`)),
		w
			.select({ at: min(turns.leaseExpiresAt) })
			.from(turns)
			.where(eq(turns.status, 'running')),
		w
			.select({ id: turns.id })
			.from(turns)
			.where(inArray(turns.status, ['accepted', 'running']))
			.limit(1)
	]);
	return { turn: claimed[0], nextExpiry: expiry?.at ?? undefined, unfinished: unfinished.length > 0 };
}

/** Extends the lease; false when it is no longer ours (and the turn must stop). Also reports a cancel request. */
export async function renewLease(
	tx: SessionTx,
	turnId: string,
	owner: string,
	now: number,
	leaseMs = LEASE_MS
): Promise<{ held: boolean; cancelRequested: boolean }> {
	const [row] = await tx
		.update(turns)
		.set({ leaseExpiresAt: now + leaseMs })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'running'), eq(turns.leaseOwner, owner)))
		.returning({ cancel: turns.cancelRequested });
	return { held: row !== undefined, cancelRequested: row?.cancel ?? false };
}

/** Ends a turn that did not commit. Only the lease holder may do so. */
export async function finishUncommitted(
	tx: SessionTx,
	turnId: string,
	owner: string,
	outcome: { status: 'cancelled'; error: string } | { status: 'failed'; failure: TurnFailure },
	now: number
): Promise<boolean> {
	const ending =
		outcome.status === 'failed'
			? { error: null, failureReason: outcome.failure.reason, errorId: outcome.failure.errorId }
			: { error: outcome.error };
	const rows = await tx
		.update(turns)
		.set({ status: outcome.status, ...ending, finishedAt: now, leaseOwner: null, leaseExpiresAt: null })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'running'), eq(turns.leaseOwner, owner)))
		.returning({ id: turns.id });
	return rows.length > 0;
}

/** Marks a cancel request; an accepted (not yet started) turn is cancelled at once. */
export async function requestCancel(tx: SessionTx, turnId: string, now: number): Promise<TurnRow | undefined> {
	const [accepted] = await tx
		.update(turns)
		.set({ status: 'cancelled', cancelRequested: true, finishedAt: now })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'accepted')))
		.returning();
	if (accepted) {
		await appendEvent(tx, { type: 'turn.cancelled', turnId });
		return accepted;
	}
	const [running] = await tx
		.update(turns)
		.set({ cancelRequested: sql`1` })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'running')))
		.returning();
	return running;
}

/**
 * Turn leases: the row that says which runner executes a turn and until when. A runner renews its
 * lease while it works; a lease that expires means its process died, and the turn is marked
 * interrupted. Nothing ever sends an interrupted turn to the LLM again by itself.
 */
import type { SessionDb, SessionTx } from '../db';
import { appendEvent, appendTurnEventsQuery } from '../events';
import {
	anyUnfinishedQuery,
	cancelAccepted,
	claimOldestQuery,
	expiredLeaseTurnsSql,
	flagCancel,
	foldQueued,
	justClaimedTurnSql,
	markInterrupted,
	markInterruptedQuery,
	nextExpiryQuery,
	turnById,
	type TurnRow
} from './turns';
import { turnStartQueries, type TurnStartReads } from './history';

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

/** Marks turns whose lease expired as interrupted (with an event). Returns their ids. */
export async function interruptExpired(tx: SessionTx, now: number): Promise<string[]> {
	const expired = await markInterrupted(tx, now);
	for (const turnId of expired) await appendEvent(tx, { type: 'turn.interrupted', turnId });
	return expired;
}

/**
 * Reads a turn as it stands now: one still marked running whose lease ran out belongs to a runner
 * that died, so it is marked interrupted first (a client that only polls must see it end).
 * Returns undefined for an unknown id; `interrupted` says whether this read wrote anything.
 */
export async function readTurn(s: SessionDb, turnId: string, now: number): Promise<{ turn: TurnRow | undefined; interrupted: boolean }> {
	const row = await turnById(s.db, turnId);
	if (!row || row.status !== 'running' || row.leaseExpiresAt === null || row.leaseExpiresAt >= now)
		return { turn: row, interrupted: false };
	const interrupted = await s.write((tx) => interruptExpired(tx, now));
	return { turn: await turnById(s.db, turnId), interrupted: interrupted.length > 0 };
}

/** What a claim found: the turn it claimed, if any, and what the runner needs to know when it found none. */
export interface Claim {
	turn: TurnRow | undefined;
	/** When the earliest lease of a running turn runs out (another runner's, when nothing was claimed). */
	nextExpiry: number | undefined;
	/** Whether turns are still waiting or running. */
	unfinished: boolean;
}

/** interruptExpired as two queries of a write batch: the events, then the turns marked interrupted. */
export function interruptExpiredQueries(s: Pick<SessionDb, 'writes'>, now: number) {
	return [
		appendTurnEventsQuery(s.writes, 'turn.interrupted', now, expiredLeaseTurnsSql(now)),
		markInterruptedQuery(s.writes, now)
	] as const;
}

/**
 * Claims the oldest accepted turn for `owner`, unless another turn of the session is running under a
 * live lease; turns whose lease ran out are marked interrupted first. The status change accepted →
 * running is the single point that makes a turn run once: it is one conditional UPDATE, in one write
 * batch with its events and the reads a runner needs when nothing was claimed (one round trip). What a
 * claimed turn starts from (`turnStartQueries`) is read in the same batch, after the claim: `start`
 * (wasted when nothing was claimed, which the runner avoids by claiming only when a turn waits or runs).
 */
export async function claimNext(s: SessionDb, owner: string, now: number, leaseMs = LEASE_MS): Promise<Claim & { start: TurnStartReads }> {
	const w = s.writes;
	const [, , claimed, , [expiry], unfinished, ...start] = await w.batch([
		...interruptExpiredQueries(s, now),
		claimOldestQuery(w, owner, now, leaseMs),
		// The claimed turn is the one running under this owner's lease taken now (none if the claim changed nothing).
		appendTurnEventsQuery(w, 'turn.started', now, justClaimedTurnSql(owner, now)),
		nextExpiryQuery(w),
		anyUnfinishedQuery(w),
		// Built on the session's drizzle (they read only); sent in this write batch like the rest.
		...turnStartQueries(s.db)
	]);
	const turn = claimed[0];
	if (turn?.kind !== 'player' || !unfinished.some((u) => u.id !== turn.id)) {
		return { turn, nextExpiry: expiry?.at ?? undefined, unfinished: unfinished.length > 0, start };
	}
	return { turn: await answerQueued(s, turn, owner, now), nextExpiry: expiry?.at ?? undefined, unfinished: true, start };
}

/**
 * Play together, free turn order: lines that came while the GM wrote waited, queued; the player turn just
 * claimed answers them too, in order (`foldQueued`), with a `turn.merged` event for each so every screen
 * moves them from "queued" into the turn. Costs a write only when something else is unfinished.
 */
async function answerQueued(s: SessionDb, turn: TurnRow, owner: string, now: number): Promise<TurnRow> {
	const input = await s.write(async (tx) => {
		const folded = await foldQueued(tx, turn, owner, now);
		for (const turnId of folded.merged) await appendEvent(tx, { type: 'turn.merged', turnId, into: turn.id, input: folded.input });
		return folded.input;
	});
	return { ...turn, input };
}

/** Marks a cancel request; an accepted (not yet started) turn is cancelled at once. */
export async function requestCancel(tx: SessionTx, turnId: string, now: number): Promise<TurnRow | undefined> {
	const accepted = await cancelAccepted(tx, turnId, now);
	if (accepted) {
		await appendEvent(tx, { type: 'turn.cancelled', turnId });
		return accepted;
	}
	return flagCancel(tx, turnId);
}

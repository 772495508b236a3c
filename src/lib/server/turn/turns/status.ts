/**
 * Every change of a turn row's status after it was inserted: leases (claimed, renewed, run out), the
 * commit, the end of a turn that did not commit, cancelling, and an undo taking rows out. Each is one
 * conditional UPDATE on the row, so only the lease holder (or the one state it applies to) can make it.
 */
import { and, asc, eq, inArray, isNull, lt, notExists, sql, type SQL } from 'drizzle-orm';
import type { SessionDrizzle, SessionExec, SessionTx } from '../../db';
import type { TurnFailure } from '../../../types/events';
import { turns, type TurnRow, type Writes } from './rows';

/** Turns `where` selects, oldest first, as the rest of a query (`FROM turns WHERE … ORDER BY …`): for events written per turn. */
const inOrder = (where: SQL) => sql`FROM turns WHERE ${where} ORDER BY created_at, id`;

const INTERRUPTED = {
	status: 'interrupted',
	error: 'The server stopped while this turn was running. Nothing from it was saved; send it again if you want.',
	leaseOwner: null,
	leaseExpiresAt: null
} as const;

const expiredLease = (now: number) => and(eq(turns.status, 'running'), lt(turns.leaseExpiresAt, now));
/** The turns whose lease expired, as the rest of a query (`FROM … ORDER BY …`): what their `turn.interrupted` events are written for. */
export const expiredLeaseTurnsSql = (now: number) => inOrder(sql`status = 'running' AND lease_expires_at < ${now}`);

/** Marks turns whose lease expired as interrupted; returns their ids. */
export async function markInterrupted(tx: SessionTx, now: number): Promise<string[]> {
	const rows = await tx
		.update(turns)
		.set({ ...INTERRUPTED, finishedAt: now })
		.where(expiredLease(now))
		.returning({ id: turns.id });
	return rows.map((r) => r.id);
}

/** `markInterrupted` as a write batch statement. */
export function markInterruptedQuery(w: Pick<Writes, 'update'>, now: number) {
	return w
		.update(turns)
		.set({ ...INTERRUPTED, finishedAt: now })
		.where(expiredLease(now));
}

/**
 * Claims the oldest accepted turn for `owner`, as a write batch statement returning the claimed row:
 * one conditional UPDATE, the single point that makes a turn run once. Nothing is claimed while
 * another turn runs.
 */
export function claimOldestQuery(w: Pick<Writes, 'update' | 'select'>, owner: string, now: number, leaseMs: number) {
	const oldest = w.select({ id: turns.id }).from(turns).where(eq(turns.status, 'accepted')).orderBy(asc(turns.createdAt)).limit(1);
	return w
		.update(turns)
		.set({ status: 'running', leaseOwner: owner, leaseExpiresAt: now + leaseMs, startedAt: now })
		.where(
			and(
				sql`${turns.id} = (${oldest})`,
				eq(turns.status, 'accepted'),
				notExists(w.select({ id: turns.id }).from(turns).where(eq(turns.status, 'running')))
			)
		)
		.returning();
}

/** The turn `claimOldestQuery` just claimed (none if it changed nothing), as the rest of a query: what its `turn.started` event is written for. */
export const justClaimedTurnSql = (owner: string, now: number) =>
	inOrder(sql`status = 'running' AND lease_owner = ${owner} AND started_at = ${now} AND changes() > 0`);

const heldBy = (turnId: string, owner: string) => and(eq(turns.id, turnId), eq(turns.status, 'running'), eq(turns.leaseOwner, owner));

/** Extends the lease; false when it is no longer ours (and the turn must stop). Also reports a cancel request. */
export async function renewLease(
	tx: SessionTx,
	turnId: string,
	owner: string,
	now: number,
	leaseMs: number
): Promise<{ held: boolean; cancelRequested: boolean }> {
	const [row] = await tx
		.update(turns)
		.set({ leaseExpiresAt: now + leaseMs })
		.where(heldBy(turnId, owner))
		.returning({ cancel: turns.cancelRequested });
	return { held: row !== undefined, cancelRequested: row?.cancel ?? false };
}

/** What a commit writes on its turn row, but the `seq` (given by the commit that knows it, or taken next in SQL). */
export type Committed = Pick<typeof turns.$inferInsert, 'reply' | 'stopped' | 'tokens' | 'provider' | 'model' | 'finishedAt'>;

/** Marks a turn committed; false when the lease is no longer `owner`'s (the commit must roll back). */
export async function markCommitted(tx: SessionTx, turnId: string, owner: string, c: Committed, seq: number): Promise<boolean> {
	const rows = await tx
		.update(turns)
		.set({ status: 'committed', ...c, seq, leaseOwner: null, leaseExpiresAt: null })
		.where(heldBy(turnId, owner))
		.returning({ id: turns.id });
	return rows.length > 0;
}

/** `markCommitted`, unrun, for a write batch: the turn takes the next `seq` in SQL, as the batch runs. */
export function markCommittedQuery(db: Pick<SessionDrizzle, 'update'>, turnId: string, owner: string, c: Committed) {
	const seq = sql`(SELECT coalesce(max(${turns.seq}), 0) + 1 FROM ${turns})`;
	return db
		.update(turns)
		.set({ status: 'committed', ...c, seq, leaseOwner: null, leaseExpiresAt: null })
		.where(heldBy(turnId, owner));
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
		.where(heldBy(turnId, owner))
		.returning({ id: turns.id });
	return rows.length > 0;
}

/** Cancels turn `id` if it is still accepted (not started); returns the row if it was. */
export async function cancelAccepted(tx: SessionTx, turnId: string, now: number): Promise<TurnRow | undefined> {
	const [row] = await tx
		.update(turns)
		.set({ status: 'cancelled', cancelRequested: true, finishedAt: now })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'accepted')))
		.returning();
	return row;
}

/** Player lines still waiting, in the order they were accepted (insertion order: rowid), as a read for a batch. */
export function queuedLinesQuery(exec: Pick<SessionDrizzle, 'select'>) {
	return exec
		.select({ id: turns.id, input: turns.input, sender: sql<string>`coalesce(${turns.senderId}, ${turns.userId})` })
		.from(turns)
		.where(and(eq(turns.status, 'accepted'), eq(turns.kind, 'player'), isNull(turns.whisperBy)))
		.orderBy(sql`rowid`);
}

/**
 * Play together, free turn order: the player lines queued while the GM wrote are answered by the turn `into`
 * that has just started, after its own line and in the order they came; each queued row is marked `merged`
 * into it. The running turn's input becomes every line it answers. Returns the merged rows, none if nothing
 * waited (or the turn is no longer `owner`'s).
 */
export async function foldQueued(tx: SessionTx, into: TurnRow, owner: string, now: number): Promise<{ input: string; merged: string[] }> {
	// A whisper's turn is private as a whole: public lines wait for the next turn rather than be answered in it.
	if (into.whisperBy !== null) return { input: into.input, merged: [] };
	const queued = await queuedLinesQuery(tx);
	if (queued.length === 0) return { input: into.input, merged: [] };
	const input = [into.input, ...queued.map((q) => q.input)].join('\n');
	const [held] = await tx.update(turns).set({ input }).where(heldBy(into.id, owner)).returning({ id: turns.id });
	if (!held) return { input: into.input, merged: [] };
	const ids = queued.map((q) => q.id);
	await tx
		.update(turns)
		.set({ status: 'merged', mergedInto: into.id, finishedAt: now })
		.where(and(inArray(turns.id, ids), eq(turns.status, 'accepted')));
	return { input, merged: ids };
}

/** Asks the runner of turn `id` to stop, if it is running; returns the row if it was. */
export async function flagCancel(tx: SessionTx, turnId: string): Promise<TurnRow | undefined> {
	const [row] = await tx
		.update(turns)
		.set({ cancelRequested: sql`1` })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'running')))
		.returning();
	return row;
}

/** Deletes turns `ids`, unrun: an undo takes the rows out (see `turnsFrom`). */
export function deleteTurnsQuery(exec: Pick<SessionExec, 'delete'>, ids: readonly string[]) {
	return exec.delete(turns).where(inArray(turns.id, [...ids]));
}

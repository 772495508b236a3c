/**
 * The `turns` table's one repository: every read and write of a turn row goes through here, so the
 * row's shape, its states and the indexes its queries rely on are kept in one place. Functions that
 * end in `Query` return an unrun statement for a batch (`db.batch` or a write batch `SessionDb.writes`:
 * one round trip with whatever else it carries); the others run their query.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, min, notExists, notInArray, sql, type SQL } from 'drizzle-orm';
import { newId, sessionSchema, type SessionDb, type SessionDrizzle, type SessionExec, type SessionTx } from '../db';
import type { TurnFailure } from '../../types/events';

const { turns } = sessionSchema;

export type TurnRow = typeof turns.$inferSelect;
export type TurnKind = TurnRow['kind'];

type Writes = SessionDb['writes'];
type Reads = Pick<SessionDrizzle, 'select'>;

/** A turn that has not ended: waiting for a runner, or running under a lease. */
const UNFINISHED: TurnRow['status'][] = ['accepted', 'running'];
/** Kinds that wait their turn one at a time (a checkpoint is the harness's own work and may run beside them). */
const QUEUED_KINDS: TurnKind[] = ['player', 'handoff'];

/** A new turn: every turn row is created from this one shape. */
export interface NewTurn {
	kind: TurnKind;
	userId: string;
	/** The player's tier, as the accept counted the quota under it (player turns). */
	tier?: TurnRow['tier'] | undefined;
	input: string;
	now: number;
	/** The player's idempotency key; harness turns get `<kind>:<id>`. */
	idempotencyKey?: string;
	/** A turn the harness runs at once is created running under this lease; others wait, accepted. */
	lease?: { owner: string; expiresAt: number };
}

/** The row a new turn is inserted as. */
export function newTurnRow(t: NewTurn, id = newId()): typeof turns.$inferInsert & { id: string; idempotencyKey: string } {
	const base = {
		id,
		idempotencyKey: t.idempotencyKey ?? `${t.kind}:${id}`,
		kind: t.kind,
		userId: t.userId,
		tier: t.tier ?? null,
		input: t.input,
		createdAt: t.now
	};
	return t.lease
		? { ...base, status: 'running', leaseOwner: t.lease.owner, leaseExpiresAt: t.lease.expiresAt, startedAt: t.now }
		: { ...base, status: 'accepted' };
}

export async function insertTurn(exec: SessionExec, t: NewTurn): Promise<TurnRow> {
	const [row] = await exec.insert(turns).values(newTurnRow(t)).returning();
	if (!row) throw new Error('turn insert returned no row');
	return row;
}

/**
 * Inserts an accepted player turn, as a write batch statement, only if its key is new (among live and
 * undone turns) and no player or hand-off turn is waiting or running. Whether it went in is read
 * after it in the same batch (`acceptedQuery`).
 */
export function insertAcceptedIfFreeQuery(w: Pick<Writes, 'run'>, row: ReturnType<typeof newTurnRow>) {
	const key = row.idempotencyKey;
	return w.run(sql`INSERT INTO turns (id, idempotency_key, kind, user_id, tier, input, status, created_at)
		SELECT ${row.id}, ${key}, ${row.kind}, ${row.userId}, ${row.tier ?? null}, ${row.input}, ${row.status}, ${row.createdAt}
		WHERE NOT EXISTS (SELECT 1 FROM turns WHERE idempotency_key = ${key})
		AND NOT EXISTS (SELECT 1 FROM undone_turns WHERE idempotency_key = ${key})
		AND NOT EXISTS (SELECT 1 FROM turns WHERE status IN ('accepted', 'running') AND kind IN ('player', 'handoff'))`);
}

/** Whether turn `id` exists and is still accepted, as a batch read. */
export function acceptedQuery(exec: Reads, id: string) {
	return exec
		.select({ id: turns.id })
		.from(turns)
		.where(and(eq(turns.id, id), eq(turns.status, 'accepted')));
}

/** The live turn an idempotency key made, as a batch read. */
export function byKeyQuery(exec: Reads, key: string) {
	return exec.select({ id: turns.id, status: turns.status }).from(turns).where(eq(turns.idempotencyKey, key));
}

/**
 * One event row of `type` for each turn `where` selects, as `appendEvent` writes it (same JSON), as a
 * write batch statement: the events of a batch's turn updates without reading the turns first.
 */
export function eventsForQuery(w: Pick<Writes, 'run'>, type: 'turn.interrupted' | 'turn.started', now: number, where: SQL) {
	return w.run(sql`INSERT INTO events (turn_id, type, data, created_at)
		SELECT id, ${type}, json_object('type', ${type}, 'turnId', id), ${now} FROM turns WHERE ${where} ORDER BY created_at, id`);
}

/** An `accepted` event for turn `id`, written only if the turn went in (see `insertAcceptedIfFreeQuery`). */
export function acceptedEventIfInsertedQuery(w: Pick<Writes, 'run'>, id: string, data: string, now: number) {
	return w.run(sql`INSERT INTO events (turn_id, type, data, created_at) SELECT ${id}, 'turn.accepted', ${data}, ${now}
		WHERE EXISTS (SELECT 1 FROM turns WHERE id = ${id})`);
}

// ---- reads ----

export async function turnById(exec: SessionExec, id: string): Promise<TurnRow | undefined> {
	const [row] = await exec.select().from(turns).where(eq(turns.id, id));
	return row;
}

/** A player's turn by id (harness turns are not addressable through the API). */
export async function playerTurnById(exec: SessionExec, id: string): Promise<TurnRow | undefined> {
	const [row] = await exec
		.select()
		.from(turns)
		.where(and(eq(turns.id, id), eq(turns.kind, 'player')));
	return row;
}

/** Who played turn `id`. */
export async function turnUserId(exec: SessionExec, id: string): Promise<string | undefined> {
	const [row] = await exec.select({ userId: turns.userId }).from(turns).where(eq(turns.id, id));
	return row?.userId;
}

/** What the player sent in turn `id`. */
export async function turnInput(exec: SessionExec, id: string): Promise<string | undefined> {
	const [row] = await exec.select({ input: turns.input }).from(turns).where(eq(turns.id, id));
	return row?.input;
}

/**
 * The player's or model-switch turn that is accepted or running, if any: one at a time per session.
 * A checkpoint is the harness's own work, so a player may send the next turn while it runs; that
 * turn simply waits in the queue behind it. `newest` reads it from the other end of the queue.
 */
export async function activeTurn(exec: SessionExec, order: 'oldest' | 'newest' = 'oldest'): Promise<TurnRow | undefined> {
	const [row] = await exec
		.select()
		.from(turns)
		.where(and(inArray(turns.status, UNFINISHED), inArray(turns.kind, QUEUED_KINDS)))
		.orderBy(order === 'oldest' ? asc(turns.createdAt) : desc(turns.createdAt))
		.limit(1);
	return row;
}

/** The player's latest turn, whatever its status. */
export async function lastPlayerTurn(exec: SessionExec): Promise<TurnRow | undefined> {
	const [row] = await exec.select().from(turns).where(eq(turns.kind, 'player')).orderBy(desc(turns.createdAt)).limit(1);
	return row;
}

/** Ids of the turns of any kind that are accepted or running (at most `limit`). */
export async function unfinishedTurnIds(exec: SessionExec, limit?: number): Promise<string[]> {
	const q = exec.select({ id: turns.id }).from(turns).where(inArray(turns.status, UNFINISHED));
	const rows = limit === undefined ? await q : await q.limit(limit);
	return rows.map((r) => r.id);
}

/** Whether a turn of any kind is running. */
export async function anyRunning(exec: SessionExec): Promise<boolean> {
	const [row] = await exec.select({ id: turns.id }).from(turns).where(eq(turns.status, 'running')).limit(1);
	return row !== undefined;
}

/** Whether any turn (a checkpoint or hand-off included) has committed. */
export async function anyCommitted(exec: SessionExec): Promise<boolean> {
	const [row] = await exec.select({ id: turns.id }).from(turns).where(eq(turns.status, 'committed')).limit(1);
	return row !== undefined;
}

/** The seq of the last commit (0 before the first). */
export async function lastSeq(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ seq: turns.seq }).from(turns).where(isNotNull(turns.seq)).orderBy(desc(turns.seq)).limit(1);
	return row?.seq ?? 0;
}

/** The player turns committed so far. */
export async function committedPlayerTurns(exec: SessionExec): Promise<number> {
	const [row] = await exec
		.select({ n: sql<number>`count(*)` })
		.from(turns)
		.where(and(eq(turns.kind, 'player'), eq(turns.status, 'committed')));
	return Number(row?.n ?? 0);
}

/**
 * `status = 'committed'` written as `+status = …` so SQLite cannot pick the turns_status index for
 * it: on that index it would read every committed turn ever played (with its text) and sort them,
 * ~5 ms a call at 1,000 turns and growing. Without it the planner walks turns_seq and reads only the
 * turns since the last checkpoint.
 */
const committed = sql`+${turns.status} = 'committed'`;

/** Seq of the last committed checkpoint (0 when none), as a subquery. */
const checkpointSeq = sql`(SELECT coalesce(max(${turns.seq}), 0) FROM ${turns}
	WHERE +${turns.status} = 'committed' AND ${turns.kind} IN ('checkpoint', 'handoff'))`;

const exchangeColumns = { input: turns.input, reply: turns.reply, tokens: turns.tokens };

/**
 * Committed player exchanges around the last checkpoint, as two batch reads: the last `carry` before
 * it (newest first) and those since it (oldest first). The checkpoint's seq is a subquery, so neither
 * waits for the other.
 */
export function exchangeQueries(db: Reads, carry: number) {
	return [
		db
			.select(exchangeColumns)
			.from(turns)
			.where(and(committed, eq(turns.kind, 'player'), lt(turns.seq, checkpointSeq)))
			.orderBy(desc(turns.seq))
			.limit(carry),
		db
			.select(exchangeColumns)
			.from(turns)
			.where(and(committed, eq(turns.kind, 'player'), gt(turns.seq, checkpointSeq)))
			.orderBy(asc(turns.seq))
	] as const;
}

/** A committed player turn, if any, as a batch read (none yet: the GM continues from the opening). */
export function anyPlayedQuery(db: Reads) {
	return db
		.select({ id: turns.id })
		.from(turns)
		.where(and(committed, eq(turns.kind, 'player')))
		.limit(1);
}

/** Ids of the turns that finished before `before`, as a subquery (for pruning their streaming events). */
export function finishedBeforeQuery(exec: Reads, before: number) {
	return exec
		.select({ id: turns.id })
		.from(turns)
		.where(and(lt(turns.finishedAt, before), notInArray(turns.status, UNFINISHED)));
}

// ---- leases ----

const INTERRUPTED = {
	status: 'interrupted',
	error: 'The server stopped while this turn was running. Nothing from it was saved; send it again if you want.',
	leaseOwner: null,
	leaseExpiresAt: null
} as const;

const expiredLease = (now: number) => and(eq(turns.status, 'running'), lt(turns.leaseExpiresAt, now));
/** The same condition in plain SQL, for `eventsForQuery`. */
export const expiredLeaseSql = (now: number) => sql`status = 'running' AND lease_expires_at < ${now}`;

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

/** The turn `claimOldestQuery` just claimed (none if it changed nothing), in plain SQL for `eventsForQuery`. */
export const justClaimedSql = (owner: string, now: number) =>
	sql`status = 'running' AND lease_owner = ${owner} AND started_at = ${now} AND changes() > 0`;

/** When the earliest lease of a running turn runs out, as a batch read. */
export function nextExpiryQuery(w: Reads) {
	return w
		.select({ at: min(turns.leaseExpiresAt) })
		.from(turns)
		.where(eq(turns.status, 'running'));
}

/** Whether any turn is still accepted or running, as a batch read. */
export function anyUnfinishedQuery(w: Reads) {
	return w.select({ id: turns.id }).from(turns).where(inArray(turns.status, UNFINISHED)).limit(1);
}

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

/** What a turn's commit records on its row. */
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

/** Asks the runner of turn `id` to stop, if it is running; returns the row if it was. */
export async function flagCancel(tx: SessionTx, turnId: string): Promise<TurnRow | undefined> {
	const [row] = await tx
		.update(turns)
		.set({ cancelRequested: sql`1` })
		.where(and(eq(turns.id, turnId), eq(turns.status, 'running')))
		.returning();
	return row;
}

// ---- undo ----

/** The committed player turn with the highest seq. */
export async function lastCommittedPlayerTurnId(exec: SessionExec): Promise<string | undefined> {
	const [row] = await exec
		.select({ id: turns.id })
		.from(turns)
		.where(and(eq(turns.kind, 'player'), eq(turns.status, 'committed')))
		.orderBy(desc(turns.seq))
		.limit(1);
	return row?.id;
}

/** Committed turns from `seq` on, newest first. */
export async function committedSince(exec: SessionExec, seq: number): Promise<{ id: string; kind: TurnKind }[]> {
	return exec
		.select({ id: turns.id, kind: turns.kind })
		.from(turns)
		.where(and(eq(turns.status, 'committed'), gte(turns.seq, seq)))
		.orderBy(desc(turns.seq));
}

/** Turn `id` and every row inserted after it (by rowid), whatever their status: what an undo takes out. */
export async function turnsFrom(
	tx: SessionTx,
	id: string
): Promise<{ id: string; idempotencyKey: string; kind: TurnKind; input: string }[]> {
	return tx.all<{ id: string; idempotencyKey: string; kind: TurnKind; input: string }>(
		sql`SELECT id, idempotency_key AS idempotencyKey, kind, input FROM turns WHERE rowid >= (SELECT rowid FROM turns WHERE id = ${id})`
	);
}

export async function deleteTurns(tx: SessionTx, ids: string[]): Promise<void> {
	await tx.delete(turns).where(inArray(turns.id, ids));
}

/**
 * Whether the session has turn work for a runner now, as one SQL expression (1 or 0): a turn accepted
 * and not yet claimed, or one still marked running whose lease ran out (its runner died). A turn
 * running under a live lease is its runner's business. For a cheap look before waking the runner.
 */
export function turnsWaiting(now: number): SQL {
	return sql`exists (select 1 from ${turns} where ${turns.status} = 'accepted' or (${turns.status} = 'running' and ${turns.leaseExpiresAt} < ${now}))`;
}

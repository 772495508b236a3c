/**
 * Reads of turn rows: a turn by id, the queue (what is active, waiting or running), what has committed,
 * the exchanges the context window is built from, and what an undo takes back.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, min, ne, notInArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SessionExec, SessionTx } from '../../db';
import { QUEUED_KINDS, turns, UNFINISHED, type Reads, type TurnKind, type TurnRow, type Whisper } from './rows';

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

/** The whispers among turns `ids` (issue 25): turn id → who whispered, as which character. Public turns are absent. */
export async function whispersAmong(exec: SessionExec, ids: readonly string[]): Promise<Map<string, Whisper>> {
	if (ids.length === 0) return new Map();
	const rows = await exec
		.select({ id: turns.id, by: turns.whisperBy, as: turns.whisperAs })
		.from(turns)
		.where(and(inArray(turns.id, [...new Set(ids)]), isNotNull(turns.whisperBy)));
	return new Map(rows.map((r) => [r.id, { by: r.by ?? '', as: r.as ?? '' }]));
}

/** The ids of every whispered turn, as a subquery: what the records built for the owner (a save's last line) leave out. */
export const WHISPER_TURN_IDS_SQL: SQL = sql`(SELECT id FROM turns WHERE whisper_by IS NOT NULL)`;

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

/** The player's latest turn, whatever its status (a queued line a turn answered is part of that turn, not one of its own). */
export async function lastPlayerTurn(exec: SessionExec): Promise<TurnRow | undefined> {
	const [row] = await exec
		.select()
		.from(turns)
		.where(and(eq(turns.kind, 'player'), ne(turns.status, 'merged')))
		.orderBy(desc(turns.createdAt))
		.limit(1);
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

const exchangeColumns = { input: turns.input, reply: turns.reply, tokens: turns.tokens, whisperAs: turns.whisperAs };

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

/** When the earliest lease of a running turn runs out, as a batch read. */
export function nextExpiryQuery(w: Reads) {
	return w
		.select({ at: min(turns.leaseExpiresAt) })
		.from(turns)
		.where(eq(turns.status, 'running'));
}

/** Whether any turn is still accepted or running, as a batch read. */
export function anyUnfinishedQuery(w: Reads) {
	// Two: after a claim, whether anything besides the claimed turn waits (lines queued behind it).
	return w.select({ id: turns.id }).from(turns).where(inArray(turns.status, UNFINISHED)).limit(2);
}

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
): Promise<{ id: string; idempotencyKey: string; kind: TurnKind; input: string; whisperBy: string | null }[]> {
	return tx.all<{ id: string; idempotencyKey: string; kind: TurnKind; input: string; whisperBy: string | null }>(
		sql`SELECT id, idempotency_key AS idempotencyKey, kind, input, whisper_by AS whisperBy FROM turns
		WHERE rowid >= (SELECT rowid FROM turns WHERE id = ${id})`
	);
}

/**
 * Whether the session has turn work for a runner now, as one SQL expression (1 or 0): a turn accepted
 * and not yet claimed, or one still marked running whose lease ran out (its runner died). A turn
 * running under a live lease is its runner's business. For a cheap look before waking the runner.
 */
export function turnsWaiting(now: number): SQL {
	return sql`exists (select 1 from ${turns} where ${turns.status} = 'accepted' or (${turns.status} = 'running' and ${turns.leaseExpiresAt} < ${now}))`;
}

/** The last committed turn's `seq` (0 before the first), as a plain SQL expression for a read written by hand. */
export const LAST_SEQ_EXPR = 'coalesce((SELECT max(seq) FROM turns), 0)';

/**
 * The kind of the turn `turnId` names (null when no turn row has that id), as an SQL expression: for a report
 * over rows that name their turn (the cost ledger), in the same query.
 */
export function turnKindOf(turnId: SQLWrapper): SQL<TurnKind | null> {
	return sql<TurnKind | null>`(SELECT ${turns.kind} FROM ${turns} WHERE ${turns.id} = ${turnId})`;
}

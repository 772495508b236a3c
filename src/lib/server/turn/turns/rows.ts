/** A turn row's shape and how one comes to be: the one shape every new turn is inserted as. */
import { sql, type SQL } from 'drizzle-orm';
import { newId, sessionSchema, type SessionDb, type SessionDrizzle, type SessionExec } from '../../db';

export const { turns } = sessionSchema;

export type TurnRow = typeof turns.$inferSelect;
export type TurnKind = TurnRow['kind'];

export type Writes = SessionDb['writes'];
export type Reads = Pick<SessionDrizzle, 'select'>;

/** A turn that has not ended: waiting for a runner, or running under a lease. */
export const UNFINISHED: TurnRow['status'][] = ['accepted', 'running'];
/** Kinds that wait their turn one at a time (a checkpoint is the harness's own work and may run beside them). */
export const QUEUED_KINDS: TurnKind[] = ['player', 'handoff'];

/** Who whispered a line to the GM: a user id, and the character they play. */
export interface Whisper {
	by: string;
	as: string;
}

/** A new turn: every turn row is created from this one shape. */
export interface NewTurn {
	kind: TurnKind;
	userId: string;
	/** The player's tier, as the accept counted the quota under it (player turns). */
	tier?: TurnRow['tier'] | undefined;
	input: string;
	/** A whisper: who whispered the line, as which character (only they and the GM see it and its answer). */
	whisper?: Whisper | undefined;
	now: number;
	/** Play together: the member who sent the line, when not `userId` (who pays for it). */
	senderId?: string | undefined;
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
		senderId: t.senderId ?? null,
		tier: t.tier ?? null,
		input: t.input,
		whisperBy: t.whisper?.by ?? null,
		whisperAs: t.whisper?.as ?? null,
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
 * undone turns) and no player or hand-off turn is waiting or running — unless `queue`: then it waits
 * behind them, and the next turn the runner starts answers it with the lines before it (`foldQueued`).
 * Whether it went in is read after it in the same batch (`acceptedQuery`).
 */
export function insertAcceptedIfFreeQuery(w: Pick<Writes, 'run'>, row: ReturnType<typeof newTurnRow>, queue = false) {
	const key = row.idempotencyKey;
	const free = queue
		? sql``
		: sql`AND NOT EXISTS (SELECT 1 FROM turns WHERE status IN ('accepted', 'running') AND kind IN ('player', 'handoff'))`;
	return w.run(sql`INSERT INTO turns (id, idempotency_key, kind, user_id, sender_id, tier, input, whisper_by, whisper_as, status, created_at)
		SELECT ${row.id}, ${key}, ${row.kind}, ${row.userId}, ${row.senderId ?? null}, ${row.tier ?? null}, ${row.input}, ${row.whisperBy ?? null},
		${row.whisperAs ?? null}, ${row.status}, ${row.createdAt}
		WHERE NOT EXISTS (SELECT 1 FROM turns WHERE idempotency_key = ${key})
		AND NOT EXISTS (SELECT 1 FROM undone_turns WHERE idempotency_key = ${key})
		${free}`);
}

/** Whether turn `id` exists, in plain SQL: what the event of `insertAcceptedIfFreeQuery`'s turn is written under. */
export const turnExistsSql = (id: string): SQL => sql`EXISTS (SELECT 1 FROM turns WHERE id = ${id})`;

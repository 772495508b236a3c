/**
 * Undo, reroll and edit: taking the last turn back with every record it wrote.
 *
 * Every turn's commit notes the before-images of the rows it wrote in the undo log, in the same
 * transaction (db/undo-log.ts). An undo puts them back, newest turn first, in one write transaction:
 * the last player turn and every checkpoint or hand-off that committed after it (the summary it wrote
 * goes, the window is what it was, a model switch goes back). The turns' rows leave `turns` for
 * `undone_turns`, so the records — state, journal, notes, story DB, play log, stage cues, image
 * orders, summaries, NPCs, places, meta — are exactly as they were before the turn.
 *
 * What stays: the cost ledger and the control database's usage (the budget guard still counts what
 * was spent), the event log (it gets `turn.undone`, which tells open screens to reload), the id
 * counters (no id is handed out twice) and images already in the store.
 */
import { eq } from 'drizzle-orm';
import { toStatement, sessionSchema, undoLog, type SessionDb, type SessionTx, type TxBatch } from '../db';
import {
	committedSince,
	deleteTurnsQuery,
	dropPendingModelQuery,
	interruptExpired,
	lastCommittedPlayerTurnId,
	turnById,
	turnsFrom,
	unfinishedTurnIds
} from '../turn';
import { appendEvent, dropStreamingEventsQuery } from '../events';
import { imageOrders } from '../stage';
import { TimeTravelError } from './errors';

const { undoneTurns, timeTravelRequests } = sessionSchema;

export interface UndoOutcome {
	/** The player turn taken back. */
	turnId: string;
	/** The line the player sent in it (what an edit starts from). */
	input: string;
	/** Every turn taken back, newest first: the checkpoints and hand-offs after it, then it. */
	undone: string[];
	/** Image orders the undo took back or put back to pending: their running calls stop. */
	orders: number[];
}

export interface UndoRequest {
	turnId: string;
	/** The request's idempotency key. */
	key: string;
	action: 'undo' | 'reroll' | 'swipe';
	now: number;
}

/** What a request with this key did, if one was made; a key used for another turn or action is refused. */
export async function priorRequest(
	exec: SessionDb['db'] | SessionTx,
	req: Pick<UndoRequest, 'key' | 'turnId' | 'action'>
): Promise<UndoOutcome | undefined> {
	const [prior] = await exec.select().from(timeTravelRequests).where(eq(timeTravelRequests.key, req.key));
	if (!prior) return undefined;
	if (prior.turnId !== req.turnId || prior.action !== req.action)
		throw new TimeTravelError('key_reused', 'This idempotency key was used for another request; send a new key.');
	const [turn] = await exec.select({ input: undoneTurns.input }).from(undoneTurns).where(eq(undoneTurns.id, prior.turnId));
	return { turnId: prior.turnId, input: turn?.input ?? '', undone: prior.undone, orders: [] };
}

/**
 * Takes turn `turnId` back inside `tx`. It must be the session's last committed player turn, and no
 * turn may be waiting or running (a checkpoint included): 409 otherwise.
 */
export async function undoInTx(tx: SessionTx, batch: TxBatch, req: UndoRequest): Promise<UndoOutcome> {
	const target = await turnById(tx, req.turnId);
	if (!target) {
		const [gone] = await tx.select({ id: undoneTurns.id }).from(undoneTurns).where(eq(undoneTurns.id, req.turnId));
		if (gone) throw new TimeTravelError('already_undone', 'This turn has already been undone.');
		throw new TimeTravelError('not_found', 'No such turn in this session.');
	}
	await interruptExpired(tx, req.now);
	const [busy] = await unfinishedTurnIds(tx, 1);
	if (busy) throw new TimeTravelError('busy', 'The GM is still working on a turn. Wait for it to finish, or cancel it, then undo.');
	const last = await lastCommittedPlayerTurnId(tx);
	if (target.kind !== 'player' || target.status !== 'committed' || target.seq === null || last !== target.id) {
		throw new TimeTravelError('not_last', 'Only the last turn can be undone; undo the turns after it first.');
	}

	// A whisper's line leaves no trace an owner's undo (or its resend, or the stream) could read back.
	const input = target.whisperBy === null ? target.input : '';
	const since = await committedSince(tx, target.seq);
	const ids = since.map((t) => t.id);
	const gone = await turnsFrom(tx, target.id);
	const goneIds = gone.map((t) => t.id);
	// The rest is built client-side: one batch of reads, one batch of writes (two round trips to a
	// remote database however many rows and tables the turns wrote).
	const [schema, touched, orderRows] = await batch([undoLog.SCHEMA_QUERY, undoLog.touchedQuery(ids), imageOrders.touchedByTurnsQuery(ids)]);
	if (!schema || !touched || !orderRows) throw new Error('undo: the read batch returned too few results');
	const rollBack = undoLog.rollBackStatements(ids, touched.rows, undoLog.capturedTablesOf(schema.rows));
	await batch([
		...rollBack.statements,
		// The hand-off consumed the switch's waiting model; with the hand-off gone, so is the switch.
		...(since.some((t) => t.kind === 'handoff') ? [toStatement(dropPendingModelQuery(tx))] : []),
		// The turn's row and every row after it (its checkpoints, and turns that failed or were cancelled
		// since) leave `turns`: `turns` is as it was before the turn was sent.
		...gone.map((t) =>
			toStatement(
				tx.insert(undoneTurns).values({
					id: t.id,
					idempotencyKey: t.idempotencyKey,
					kind: t.kind,
					input: t.whisperBy === null ? t.input : '',
					undoKey: req.key,
					undoneAt: req.now
				})
			)
		),
		toStatement(deleteTurnsQuery(tx, goneIds)),
		// Streaming events are only for following a turn live; an undone turn's go with it.
		toStatement(dropStreamingEventsQuery(tx, goneIds)),
		toStatement(
			tx.insert(timeTravelRequests).values({ key: req.key, action: req.action, turnId: target.id, undone: ids, createdAt: req.now })
		)
	]);
	const orders = orderRows.rows.map((o) => Number(o.id));
	await appendEvent(tx, { type: 'turn.undone', turnId: target.id, undone: ids, input });
	return { turnId: target.id, input, undone: ids, orders };
}

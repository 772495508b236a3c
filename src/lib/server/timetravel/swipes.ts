/**
 * Swipes (issue 24): another reply to the player's last line, and moving between the replies, each
 * with exactly its own records.
 *
 * Built on the undo log: asking for another reply is a reroll that first sets the reply on screen
 * aside (its rows as they stand and its undo log, `db/undo-log.ts`'s `stashStatements`) before rolling
 * it back; choosing one sets the one on screen aside the same way, rolls it back, and brings the chosen
 * one's rows, turn rows and undo log back (`redoStatements`). Every alternative answers the same line
 * from the same records, so each comes back exactly as it was. The one on screen is the one the story
 * keeps: the next line is played after it (the others stay set aside until another line is swiped).
 */
import * as v from 'valibot';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { newId, sessionSchema, sqlText, undoLog, type SessionDb, type SessionTx, type TxBatch } from '../db';
import { acceptTurn, committedSince, turnsFrom, unfinishedTurnIds, type AcceptedTurn } from '../turn';
import { appendEvent } from '../events';
import { undoInTx, type UndoOutcome } from './undo';
import { TimeTravelError } from './errors';
import { isWhisper, refuseWhisper } from './whispers';
import type { TimeTravelDeps } from './turns';

const { turns, undoneTurns, turnAlternatives, alternativeRows } = sessionSchema;

/** What swipes need (an `App` fits): a reroll's, and the image runner, which draws a chosen reply's waiting orders. */
export interface SwipeDeps extends TimeTravelDeps {
	images: TimeTravelDeps['images'] & { kick(sessionId: string): void };
}

export interface AlternativeItem {
	/** The turn that gave this reply. */
	id: string;
	/** The GM's reply as the turn ended it; empty while it is still being written. */
	text: string;
	/** On screen: its records are the session's. */
	current: boolean;
}

/** A member of a line's alternatives: a turn by its key, live (in `turns`), set aside, or gone (undone). */
interface Member {
	key: string;
	id: string;
	status: 'accepted' | 'running' | 'committed' | 'failed' | 'interrupted' | 'cancelled' | 'merged' | 'stashed' | 'gone';
	text: string;
}

type Exec = SessionDb['db'] | SessionTx;

/** A set-aside turn row's reply (its JSON after-image, outside data on the way back in). */
const StashedTurnSchema = v.object({ id: v.string(), reply: v.nullable(v.string()) });

/** The key and alternatives group of turn `turnId`, live or undone; a turn never swiped is a group of its own. */
async function groupOf(exec: Exec, turnId: string): Promise<{ key: string; groupId: string; listed: boolean }> {
	const [live] = await exec.select({ key: turns.idempotencyKey, kind: turns.kind }).from(turns).where(eq(turns.id, turnId));
	const [gone] = live
		? []
		: await exec.select({ key: undoneTurns.idempotencyKey, kind: undoneTurns.kind }).from(undoneTurns).where(eq(undoneTurns.id, turnId));
	const found = live ?? gone;
	if (!found || found.kind !== 'player') throw new TimeTravelError('not_found', 'No such turn in this session.');
	const [row] = await exec
		.select({ groupId: turnAlternatives.groupId })
		.from(turnAlternatives)
		.where(eq(turnAlternatives.turnKey, found.key));
	return { key: found.key, groupId: row?.groupId ?? turnId, listed: row !== undefined };
}

/** The group's members, oldest first, each with where its records are. */
async function members(exec: Exec, group: { key: string; groupId: string; listed: boolean }): Promise<Member[]> {
	const keys = group.listed
		? (
				await exec
					.select({ key: turnAlternatives.turnKey })
					.from(turnAlternatives)
					.where(eq(turnAlternatives.groupId, group.groupId))
					.orderBy(turnAlternatives.createdAt, sql`rowid`)
			).map((r) => r.key)
		: [group.key];
	const [live, stashed, undone] = await Promise.all([
		exec
			.select({ key: turns.idempotencyKey, id: turns.id, status: turns.status, reply: turns.reply })
			.from(turns)
			.where(inArray(turns.idempotencyKey, keys)),
		exec
			.select({ key: alternativeRows.turnKey, after: alternativeRows.after })
			.from(alternativeRows)
			.where(and(inArray(alternativeRows.turnKey, keys), eq(alternativeRows.tbl, 'turns'))),
		exec.select({ key: undoneTurns.idempotencyKey, id: undoneTurns.id }).from(undoneTurns).where(inArray(undoneTurns.idempotencyKey, keys))
	]);
	return keys.flatMap((key): Member[] => {
		const row = live.find((r) => r.key === key);
		if (row) return [{ key, id: row.id, status: row.status, text: row.reply ?? '' }];
		// A set-aside alternative holds its player turn's row (and any checkpoint's after it): the one with its key.
		for (const s of stashed.filter((r) => r.key === key)) {
			const turn = v.safeParse(StashedTurnSchema, JSON.parse(s.after ?? 'null'));
			if (turn.success && undone.some((u) => u.key === key && u.id === turn.output.id))
				return [{ key, id: turn.output.id, status: 'stashed', text: turn.output.reply ?? '' }];
		}
		const gone = undone.find((u) => u.key === key);
		return gone ? [{ key, id: gone.id, status: 'gone', text: '' }] : [];
	});
}

const ON_SCREEN = new Set<Member['status']>(['accepted', 'running', 'committed']);

function items(list: readonly Member[]): AlternativeItem[] {
	return list
		.filter((m) => ON_SCREEN.has(m.status) || m.status === 'stashed')
		.map((m) => ({ id: m.id, text: m.text, current: ON_SCREEN.has(m.status) }));
}

/** The replies to the line turn `turnId` answered (it, or any alternative of it), oldest first. */
export async function listAlternatives(s: SessionDb, turnId: string): Promise<AlternativeItem[]> {
	// A whisper has no others, and its own answer is not listed: the screen's swipe counter simply has nothing to count.
	if (await isWhisper(s.db, turnId)) return [];
	return items(await members(s.db, await groupOf(s.db, turnId)));
}

/** Sets the committed turn `turnId` (and what committed after it) aside under its key, then rolls it back. */
async function setAside(tx: SessionTx, batch: TxBatch, turnId: string, key: string, requestKey: string, now: number): Promise<UndoOutcome> {
	const [target] = await tx.select({ seq: turns.seq }).from(turns).where(eq(turns.id, turnId));
	if (target?.seq == null) throw new TimeTravelError('not_last', 'Only the reply to the last line can be swiped.');
	const ids = (await committedSince(tx, target.seq)).map((t) => t.id);
	const [schema, touched] = await batch([undoLog.SCHEMA_QUERY, undoLog.touchedQuery(ids)]);
	if (!schema || !touched) throw new Error('swipe: the read batch returned too few results');
	const turnsTable = undoLog.tableOf(schema.rows, 'turns');
	if (!turnsTable) throw new Error('swipe: no turns table');
	await batch(undoLog.stashStatements(key, ids, touched.rows, undoLog.capturedTablesOf(schema.rows), turnsTable));
	// undoInTx checks it is the last player turn with nothing running; if not, the whole transaction goes.
	return undoInTx(tx, batch, { turnId, key: requestKey, action: 'swipe', now });
}

/** After a swipe's transaction: screens reload, set-aside image calls stop, the runners pick up what came back. */
function afterSwipe(deps: SwipeDeps, s: SessionDb, outcome: UndoOutcome | undefined): void {
	deps.bus.notify(s.id);
	if (outcome) deps.images.cancelOrders(s.id, outcome.orders);
	deps.images.kick(s.id);
	deps.runner.kick(s.id);
}

/**
 * Asks for another reply to the line turn `turnId` answered: the reply on screen is set aside (not
 * lost) and the same line is sent again as a new turn under `key`, in one transaction with its accept,
 * as a reroll is (the quota and the budget guard count it as a turn). The same key again returns the
 * same turn and sends nothing twice.
 */
export async function newAlternative(
	deps: SwipeDeps,
	s: SessionDb,
	userId: string,
	turnId: string,
	key: string,
	now = Date.now()
): Promise<AcceptedTurn> {
	await refuseWhisper(s.db, turnId);
	const [target] = await s.db.select({ input: turns.input, kind: turns.kind }).from(turns).where(eq(turns.id, turnId));
	let outcome: UndoOutcome | undefined;
	const turn = await acceptTurn(
		deps,
		s,
		{
			userId,
			// An unknown turn is refused in `prepare` (no such turn, or not the last); the text only has to pass the checks before.
			text: target?.input ?? '…',
			idempotencyKey: key,
			prepare: async (tx) => {
				if (!target || target.kind !== 'player') throw new TimeTravelError('not_found', 'No such turn in this session.');
				const group = await groupOf(tx, turnId);
				// Only the line being swiped keeps alternatives: the story kept one reply of every earlier line.
				await tx.delete(alternativeRows).where(inArray(alternativeRows.turnKey, otherGroupsKeys(tx, group.groupId)));
				await tx.delete(turnAlternatives).where(ne(turnAlternatives.groupId, group.groupId));
				if (!group.listed) await tx.insert(turnAlternatives).values({ turnKey: group.key, groupId: group.groupId, createdAt: now });
				await tx.insert(turnAlternatives).values({ turnKey: key, groupId: group.groupId, createdAt: now });
				outcome = await setAside(tx, s.inWrite, turnId, group.key, key, now);
			}
		},
		now
	);
	if (outcome || turn.created) afterSwipe(deps, s, outcome);
	return turn;
}

function otherGroupsKeys(tx: SessionTx, groupId: string) {
	return tx.select({ key: turnAlternatives.turnKey }).from(turnAlternatives).where(ne(turnAlternatives.groupId, groupId));
}

/**
 * Puts the reply `altId` on screen in place of the one there (both alternatives of the line turn
 * `turnId` answered): every record becomes that reply's. Choosing the reply on screen changes
 * nothing. 409 while a turn is waiting or running, or once a later line was played after them.
 */
export async function chooseAlternative(
	deps: SwipeDeps,
	s: SessionDb,
	turnId: string,
	altId: string,
	now = Date.now()
): Promise<AlternativeItem[]> {
	await refuseWhisper(s.db, turnId);
	const result = await s.write(async (tx) => {
		const group = await groupOf(tx, turnId);
		const list = await members(tx, group);
		const chosen = list.find((m) => m.id === altId);
		if (!chosen || (chosen.status !== 'stashed' && !ON_SCREEN.has(chosen.status)))
			throw new TimeTravelError('not_found', 'No such alternative of this turn.');
		if (ON_SCREEN.has(chosen.status)) return { list, outcome: undefined, changed: false };
		const [busy] = await unfinishedTurnIds(tx, 1);
		if (busy) throw new TimeTravelError('busy', 'The GM is still working on a reply. Wait for it to finish, or cancel it, then choose.');
		const live = list.find((m) => m.status !== 'stashed' && m.status !== 'gone');
		let outcome: UndoOutcome | undefined;
		if (live?.status === 'committed') {
			outcome = await setAside(tx, s.inWrite, live.id, live.key, `swipe:${newId()}`, now);
		} else if (live) {
			// The newest reply failed or was cancelled: its row and those after it go, as an undo's would, if no reply committed since.
			const gone = await turnsFrom(tx, live.id);
			const later = await tx
				.select({ id: turns.id })
				.from(turns)
				.where(
					and(
						inArray(
							turns.id,
							gone.map((g) => g.id)
						),
						eq(turns.status, 'committed')
					)
				);
			if (later.length > 0)
				throw new TimeTravelError('not_last', 'A later line was played after this one; only the last line can be swiped.');
			const undoKey = `swipe:${newId()}`;
			for (const g of gone)
				await tx.insert(undoneTurns).values({
					id: g.id,
					idempotencyKey: g.idempotencyKey,
					kind: g.kind,
					input: g.whisperBy === null ? g.input : '',
					undoKey,
					undoneAt: now
				});
			await tx.delete(turns).where(
				inArray(
					turns.id,
					gone.map((g) => g.id)
				)
			);
		} else {
			throw new TimeTravelError('not_last', 'This line was undone; only the reply to the last line can be chosen.');
		}
		const [schema, stashed, turnRows] = await s.inWrite([
			undoLog.SCHEMA_QUERY,
			undoLog.stashedTablesQuery(chosen.key),
			{ sql: "SELECT turn_id FROM alternative_rows WHERE turn_key = ? AND tbl = 'turns'", args: [chosen.key] }
		]);
		if (!schema || !stashed || !turnRows) throw new Error('swipe: the read batch returned too few results');
		const tables = [...undoLog.capturedTablesOf(schema.rows), undoLog.tableOf(schema.rows, 'turns')].filter((t) => t !== undefined);
		const back = turnRows.rows.map((r) => sqlText(r.turn_id));
		await s.inWrite(undoLog.redoStatements(chosen.key, stashed.rows, tables));
		await tx.delete(undoneTurns).where(inArray(undoneTurns.id, back));
		await appendEvent(tx, { type: 'turn.swiped', turnId: chosen.id });
		return { list: await members(tx, group), outcome, changed: true };
	});
	if (result.changed) afterSwipe(deps, s, result.outcome);
	return items(result.list);
}

/**
 * The undo, reroll and edit operations the API and the play screen call: idempotent under the
 * request's key, 409 while a turn is in progress, and followed by the work an undo starts (open
 * screens told, image calls of taken-back orders stopped, restored sections embedded again).
 */
import { eq } from 'drizzle-orm';
import { sessionSchema, type SessionDb } from '../db';
import { acceptTurn, turnInput, type AcceptDeps, type AcceptedTurn } from '../turn';
import { priorRequest, undoInTx, type UndoOutcome } from './undo';
import { TimeTravelError } from './errors';
import { refuseWhisper } from './whispers';

const { undoneTurns } = sessionSchema;

/** What undo and reroll need (an `App` fits): a reroll's accept, and who to tell after an undo. */
export interface TimeTravelDeps extends AcceptDeps {
	bus: { notify(sessionId: string): void };
	runner: { kick(sessionId: string): void };
	images: { cancelOrders(sessionId: string, orderIds: readonly number[]): void };
}

export interface Undone {
	outcome: UndoOutcome;
	/** False when the key was seen before: the first request's outcome, nothing new done. */
	created: boolean;
}

/** After an undo committed: screens reload, taken-back image calls stop, the runner re-embeds what came back. */
function afterUndo(deps: TimeTravelDeps, s: SessionDb, outcome: UndoOutcome): void {
	deps.bus.notify(s.id);
	deps.images.cancelOrders(s.id, outcome.orders);
	// The turn runner embeds before it looks for work: restored sections get their vectors back and
	// their neighbours' word contexts are refreshed, as after any commit.
	deps.runner.kick(s.id);
}

export async function undoTurn(deps: TimeTravelDeps, s: SessionDb, turnId: string, key: string, now = Date.now()): Promise<Undone> {
	const prior = await priorRequest(s.db, { key, turnId, action: 'undo' });
	if (prior) return { outcome: prior, created: false };
	const result = await s.write(async (tx) => {
		// A concurrent resend may have won the race for this key.
		const again = await priorRequest(tx, { key, turnId, action: 'undo' });
		if (again) return { outcome: again, created: false };
		return { outcome: await undoInTx(tx, s.inWrite, { turnId, key, action: 'undo', now }), created: true };
	});
	if (result.created) afterUndo(deps, s, result.outcome);
	return result;
}

export interface Rerolled {
	turn: AcceptedTurn;
	/** What the reroll took back; absent on a resend (the key's turn already existed). */
	undone?: UndoOutcome;
}

/**
 * Takes the last turn back and sends a line again, in one transaction with the new turn's accept:
 * the same line (reroll) or `text` (edit). The key is the new turn's idempotency key, so a resend
 * returns the same new turn and sends nothing twice; if the accept is refused (quota, bad text),
 * nothing is undone.
 */
export async function rerollTurn(
	deps: TimeTravelDeps,
	s: SessionDb,
	userId: string,
	turnId: string,
	req: { key: string; text?: string },
	now = Date.now()
): Promise<Rerolled> {
	await refuseWhisper(s.db, turnId);
	let line = req.text;
	if (line === undefined) {
		const live = await turnInput(s.db, turnId);
		const [gone] =
			live !== undefined ? [] : await s.db.select({ input: undoneTurns.input }).from(undoneTurns).where(eq(undoneTurns.id, turnId));
		const found = live ?? gone?.input;
		if (found === undefined) throw new TimeTravelError('not_found', 'No such turn in this session.');
		line = found;
	}
	let outcome: UndoOutcome | undefined;
	const turn = await acceptTurn(
		deps,
		s,
		{
			userId,
			text: line,
			idempotencyKey: req.key,
			prepare: async (tx) => {
				outcome = await undoInTx(tx, s.inWrite, { turnId, key: req.key, action: 'reroll', now });
			}
		},
		now
	);
	if (outcome) afterUndo(deps, s, outcome);
	if (turn.created) deps.bus.notify(s.id);
	deps.runner.kick(s.id);
	return { turn, ...(outcome ? { undone: outcome } : {}) };
}

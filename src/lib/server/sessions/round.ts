/**
 * Turn order in `round` mode: only the seat whose turn it is may send (or pass); the turn then moves to the
 * next seat held, wrapping to the owner's. Taking the turn is one conditional UPDATE, so of two players
 * sending at once exactly one gets it. A seat nobody holds any more (its player left or was removed)
 * stands for the next one held, so nobody has to repair the order when people go.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { controlSchema, type ControlDb } from '../db';
import { PlaySessionError, PlaySessionNotFoundError } from './errors';
import { OWNER_SEAT, type TurnMode } from '../../types/members';

const { playSessions } = controlSchema;

type Deps = { control: ControlDb };

/** Someone sent (or passed) out of turn in `round` mode (409 NOT_YOUR_TURN). */
export class NotYourTurnError extends PlaySessionError {
	constructor(readonly currentSeat: number) {
		super(`It is seat ${currentSeat}'s turn; wait for yours.`);
	}
}

/** The seats held in the session, as a subquery in plain SQL. */
const seatsSql = (sessionId: string): SQL =>
	sql`(SELECT ${OWNER_SEAT} AS seat UNION SELECT seat FROM session_members WHERE session_id = ${sessionId} AND seat IS NOT NULL)`;
/** The first held seat at or after `from` (the owner's when there is none). */
const heldFrom = (sessionId: string, from: SQL | number): SQL =>
	sql`coalesce((SELECT min(seat) FROM ${seatsSql(sessionId)} WHERE seat >= ${from}), ${OWNER_SEAT})`;

export interface RoundState {
	turnMode: TurnMode;
	/** Null in `free` mode. */
	currentSeat: number | null;
}

export async function roundState(deps: Deps, sessionId: string): Promise<RoundState> {
	const [row] = await deps.control.db
		.select({ turnMode: playSessions.turnMode, current: sql<number>`${heldFrom(sessionId, sql`${playSessions.currentSeat}`)}` })
		.from(playSessions)
		.where(eq(playSessions.id, sessionId));
	if (!row) throw new PlaySessionNotFoundError();
	return { turnMode: row.turnMode, currentSeat: row.turnMode === 'round' ? row.current : null };
}

/** Switching to `round` starts the round with the owner. */
export async function setTurnMode(deps: Deps, sessionId: string, turnMode: TurnMode, now = Date.now()): Promise<void> {
	await deps.control.db
		.update(playSessions)
		.set({
			turnMode,
			currentSeat: sql`CASE WHEN ${playSessions.turnMode} = ${turnMode} THEN ${playSessions.currentSeat} ELSE ${OWNER_SEAT} END`,
			updatedAt: now
		})
		.where(eq(playSessions.id, sessionId));
}

/**
 * Takes `seat`'s turn and hands it on to the next seat: the taken turn (to give back if the line is then
 * refused), or undefined in `free` mode, where there is nothing to take. NotYourTurnError otherwise.
 */
export async function takeTurn(deps: Deps, sessionId: string, seat: number): Promise<{ seat: number; next: number } | undefined> {
	const next = sql`coalesce((SELECT min(seat) FROM ${seatsSql(sessionId)} WHERE seat > ${seat}), ${OWNER_SEAT})`;
	const [taken] = await deps.control.db
		.update(playSessions)
		.set({ currentSeat: next })
		.where(
			sql`${playSessions.id} = ${sessionId} AND ${playSessions.turnMode} = 'round'
			AND ${heldFrom(sessionId, sql`${playSessions.currentSeat}`)} = ${seat}`
		)
		.returning({ next: playSessions.currentSeat });
	if (taken) return { seat, next: taken.next };
	const state = await roundState(deps, sessionId);
	if (state.currentSeat === null) return undefined;
	throw new NotYourTurnError(state.currentSeat);
}

/** Gives a taken turn back (the line it was for was refused), unless the round has moved on since. */
export async function giveBackTurn(deps: Deps, sessionId: string, taken: { seat: number; next: number }): Promise<void> {
	await deps.control.db
		.update(playSessions)
		.set({ currentSeat: taken.seat })
		.where(sql`${playSessions.id} = ${sessionId} AND ${playSessions.turnMode} = 'round' AND ${playSessions.currentSeat} = ${taken.next}`);
}

/**
 * Turn order in `round` mode: only the seat whose turn it is may send (or pass); the turn then moves to the
 * next seat held, wrapping to the owner's. Taking the turn is one conditional UPDATE, so of two players
 * sending at once exactly one gets it. A seat nobody holds any more (its player left or was removed)
 * stands for the next one held, so nobody has to repair the order when people go. The owner may skip a seat
 * that has kept the table waiting longer than the session's `skipAfterSeconds`; a line whose GM turn fails
 * gives its seat the turn back (`keepTurnAfterFailure`).
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

/** The owner tried to skip a seat before the session's wait was over (409 TOO_EARLY_TO_SKIP). */
export class TooEarlyToSkipError extends PlaySessionError {
	constructor(readonly skippableAt: number) {
		super(`The player has had the turn only a short while; you can skip them from ${new Date(skippableAt).toISOString()}.`);
	}
}

/** The most a session may set as the wait before a seat can be skipped: a day. */
export const MAX_SKIP_AFTER_SECONDS = 24 * 60 * 60;

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
	skipAfterSeconds: number;
	/** From when (ms) the owner may skip the current seat; null in `free` mode. */
	skippableAt: number | null;
}

export async function roundState(deps: Deps, sessionId: string): Promise<RoundState> {
	const [row] = await deps.control.db
		.select({
			turnMode: playSessions.turnMode,
			current: sql<number>`${heldFrom(sessionId, sql`${playSessions.currentSeat}`)}`,
			since: playSessions.seatSince,
			skipAfterSeconds: playSessions.skipAfterSeconds
		})
		.from(playSessions)
		.where(eq(playSessions.id, sessionId));
	if (!row) throw new PlaySessionNotFoundError();
	const round = row.turnMode === 'round';
	return {
		turnMode: row.turnMode,
		currentSeat: round ? row.current : null,
		skipAfterSeconds: row.skipAfterSeconds,
		skippableAt: round ? (row.since ?? 0) + row.skipAfterSeconds * 1000 : null
	};
}

/** How long a seat may keep the table waiting in round order before the owner may skip it. */
export async function setSkipAfter(deps: Deps, sessionId: string, seconds: number): Promise<void> {
	await deps.control.db.update(playSessions).set({ skipAfterSeconds: seconds }).where(eq(playSessions.id, sessionId));
}

/** Switching to `round` starts the round with the owner. */
export async function setTurnMode(deps: Deps, sessionId: string, turnMode: TurnMode, now = Date.now()): Promise<void> {
	await deps.control.db
		.update(playSessions)
		.set({
			turnMode,
			currentSeat: sql`CASE WHEN ${playSessions.turnMode} = ${turnMode} THEN ${playSessions.currentSeat} ELSE ${OWNER_SEAT} END`,
			seatSince: sql`CASE WHEN ${playSessions.turnMode} = ${turnMode} THEN ${playSessions.seatSince} ELSE ${now} END`,
			updatedAt: now
		})
		.where(eq(playSessions.id, sessionId));
}

/**
 * Takes `seat`'s turn and hands it on to the next seat: the taken turn (to give back if the line is then
 * refused), or undefined in `free` mode, where there is nothing to take. NotYourTurnError otherwise.
 */
export async function takeTurn(
	deps: Deps,
	sessionId: string,
	seat: number,
	now = Date.now()
): Promise<{ seat: number; next: number } | undefined> {
	const next = nextAfter(sessionId, seat);
	const [taken] = await deps.control.db
		.update(playSessions)
		.set({ currentSeat: next, seatSince: now })
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

/** The owner skips `seat`, whose turn it is, once it has kept the table waiting long enough (TooEarlyToSkipError before). */
export async function skipTurn(deps: Deps, sessionId: string, seat: number, now = Date.now()) {
	const state = await roundState(deps, sessionId);
	if (state.currentSeat === seat && state.skippableAt !== null && now < state.skippableAt) throw new TooEarlyToSkipError(state.skippableAt);
	return takeTurn(deps, sessionId, seat, now);
}

/** Gives a taken turn back (the line it was for was refused), unless the round has moved on since. */
export async function giveBackTurn(deps: Deps, sessionId: string, taken: { seat: number; next: number }, now = Date.now()): Promise<void> {
	await deps.control.db
		.update(playSessions)
		.set({ currentSeat: taken.seat, seatSince: now })
		.where(sql`${playSessions.id} = ${sessionId} AND ${playSessions.turnMode} = 'round' AND ${playSessions.currentSeat} = ${taken.next}`);
}

/** The next seat held after `seat`, wrapping to the owner's, in plain SQL. */
const nextAfter = (sessionId: string, seat: number): SQL =>
	sql`coalesce((SELECT min(seat) FROM ${seatsSql(sessionId)} WHERE seat > ${seat}), ${OWNER_SEAT})`;

/**
 * The GM's turn for `userId`'s line failed (or was stopped): in round order their seat gets the turn back, so
 * the failure does not cost them it — unless the round has moved on since (someone passed or was skipped).
 * True when the turn went back.
 */
export async function keepTurnAfterFailure(deps: Deps, sessionId: string, userId: string, now = Date.now()): Promise<boolean> {
	const seatOf = sql`(SELECT CASE WHEN p.owner_id = ${userId} THEN ${OWNER_SEAT}
		ELSE (SELECT seat FROM session_members m WHERE m.session_id = p.id AND m.user_id = ${userId}) END
		FROM play_sessions p WHERE p.id = ${sessionId})`;
	const next = sql`coalesce((SELECT min(seat) FROM ${seatsSql(sessionId)} WHERE seat > ${seatOf}), ${OWNER_SEAT})`;
	const back = await deps.control.db
		.update(playSessions)
		.set({ currentSeat: seatOf, seatSince: now })
		.where(
			sql`${playSessions.id} = ${sessionId} AND ${playSessions.turnMode} = 'round' AND ${seatOf} IS NOT NULL
			AND ${heldFrom(sessionId, sql`${playSessions.currentSeat}`)} = ${next}`
		)
		.returning({ id: playSessions.id });
	return back.length > 0;
}

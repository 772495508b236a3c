/**
 * Turns through the API: accept (202 at once; the runner works outside the request), read, cancel.
 * Only the player's own turns are addressable; checkpoint turns are the harness's business.
 */
import * as v from 'valibot';
import { and, eq } from 'drizzle-orm';
import { acceptTurn, IdempotencyKeySchema, readTurn, type TurnRow } from '../turn';
import { sessionSchema, type SessionDb } from '../db';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import type { AcceptedTurnDto } from '../../types/api';
import { ApiError, notFound } from './errors';
import { withoutControlCharacters } from '../validation';

const { turns } = sessionSchema;

export const PostTurnBody = v.strictObject({
	// Length and blankness are the turn engine's rules (KANTERA_MAX_INPUT_CHARS); it words the 400.
	text: v.pipe(v.string('text must be a string'), withoutControlCharacters('The text')),
	idempotencyKey: IdempotencyKeySchema
});

/** Longer than any id we issue; anything longer is not ours and is not looked up. */
const MAX_TURN_ID_CHARS = 64;

const FINISHED: ReadonlySet<TurnRow['status']> = new Set(['committed', 'failed', 'interrupted', 'cancelled']);

export interface PostedTurn {
	turn: AcceptedTurnDto;
	/** False when the idempotency key was seen before: the existing turn, nothing new started. */
	created: boolean;
}

export async function postTurn(app: Kantera, user: AuthUser, s: SessionDb, body: v.InferOutput<typeof PostTurnBody>): Promise<PostedTurn> {
	const accepted = await acceptTurn(app, s, { userId: user.id, tier: user.tier, text: body.text, idempotencyKey: body.idempotencyKey });
	// Wake event streams for turn.accepted; kick even on a resend, in case the first request's process died before it could.
	if (accepted.created) app.bus.notify(s.id);
	app.runner.kick(s.id);
	return { turn: { turnId: accepted.turnId, status: accepted.status }, created: accepted.created };
}

/** The player turn `turnId` of this session, or a 404. */
async function playerTurn(s: SessionDb, turnId: string | undefined): Promise<TurnRow> {
	if (!turnId || turnId.length > MAX_TURN_ID_CHARS) throw notFound('No such turn in this session.');
	const [row] = await s.db
		.select()
		.from(turns)
		.where(and(eq(turns.id, turnId), eq(turns.kind, 'player')));
	if (!row) throw notFound('No such turn in this session.');
	return row;
}

/**
 * The player turn as it stands now. A turn still marked running whose runner died (its lease ran
 * out) is marked interrupted by this read, so a client that only polls sees it end.
 */
export async function readPlayerTurn(
	app: Pick<Kantera, 'bus'>,
	s: SessionDb,
	turnId: string | undefined,
	now = Date.now()
): Promise<TurnRow> {
	const found = await playerTurn(s, turnId);
	if (found.status !== 'running') return found;
	const { turn, interrupted } = await readTurn(s, found.id, now);
	if (interrupted) app.bus.notify(s.id);
	return turn ?? found;
}

/**
 * Asks the runner to stop the turn: an accepted turn is cancelled at once, a running one as soon as
 * its runner sees the request (the turn then writes nothing). 409 once the turn has finished.
 */
export async function cancelTurn(app: Kantera, s: SessionDb, turnId: string | undefined): Promise<TurnRow> {
	const turn = await playerTurn(s, turnId);
	if (FINISHED.has(turn.status))
		throw new ApiError(409, 'TURN_FINISHED', `The turn has already finished (${turn.status}); there is nothing to cancel.`);
	const row = await app.runner.cancel(s, turn.id);
	if (row) return row;
	// It finished between the read and the cancel.
	const now = await playerTurn(s, turn.id);
	throw new ApiError(409, 'TURN_FINISHED', `The turn has already finished (${now.status}); there is nothing to cancel.`);
}

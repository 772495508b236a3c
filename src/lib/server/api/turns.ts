/**
 * Turns through the API: accept (202 at once; the runner works outside the request), read, cancel.
 * Only the player's own turns are addressable; checkpoint turns are the harness's business.
 */
import * as v from 'valibot';
import { acceptedBefore, acceptTurn, IdempotencyKeySchema, playerTurnById, readTurn, type TurnRow } from '../turn';
import { giveBackTurn, NotYourTurnError, tableChanged, takeTurn, type SessionAccess } from '../sessions';
import type { SessionDb } from '../db';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import type { AcceptedTurnDto } from '../../types/api';
import { ApiError, notFound } from './errors';
import { withoutControlCharacters } from '../validation';

export const PostTurnBody = v.strictObject({
	// Length and blankness are the turn engine's rules (KANTERA_MAX_INPUT_CHARS); it words the 400.
	text: v.pipe(v.string('text must be a string'), withoutControlCharacters('The text')),
	idempotencyKey: IdempotencyKeySchema,
	/** A line only the GM sees (issue 25): it and the GM's answer are the sender's and the GM's alone. */
	whisper: v.optional(v.boolean('whisper must be true or false'))
});

/** Longer than any id we issue; anything longer is not ours and is not looked up. */
const MAX_TURN_ID_CHARS = 64;

const FINISHED: ReadonlySet<TurnRow['status']> = new Set(['committed', 'failed', 'interrupted', 'cancelled', 'merged']);

export interface PostedTurn {
	turn: AcceptedTurnDto;
	/** False when the idempotency key was seen before: the existing turn, nothing new started. */
	created: boolean;
}

/**
 * Plays the user's line. At a shared table (`access` says the user's place) the line goes in tagged with the
 * sender's character, its LLM cost and model are the owner's (the sender's daily quota counts it), and in
 * `round` mode the sender must hold the turn, which moves on to the next seat: taken first (one conditional
 * UPDATE, so of two players sending at once one gets it), given back if the line is then refused.
 */
export async function postTurn(
	app: Kantera,
	user: AuthUser,
	s: SessionDb,
	body: v.InferOutput<typeof PostTurnBody>,
	access?: SessionAccess
): Promise<PostedTurn> {
	const shared = access !== undefined && access.players > 0;
	let taken: Awaited<ReturnType<typeof takeTurn>>;
	if (access?.turnMode === 'round') {
		try {
			taken = await takeTurn(app, s.id, access.seat);
		} catch (err) {
			// A resend of a line that took its turn already gets that line back, not the refusal.
			const before = err instanceof NotYourTurnError ? await acceptedBefore(s, body.idempotencyKey) : undefined;
			if (before) return { turn: { turnId: before.turnId, status: before.status }, created: false };
			throw err;
		}
		if (taken) await tableChanged(app, access.session);
	}
	const payer = access && access.role !== 'owner' ? { userId: access.owner.id, tier: access.owner.tier } : undefined;
	const whisper = body.whisper === true ? { by: user.id, as: access?.character?.name ?? user.name } : undefined;
	// At a shared table the line is tagged with the sender's character; in `free` order a line sent while the GM writes
	// waits, queued — but never a whisper: queued lines are answered together, in public (`foldQueued`).
	const queue = access?.turnMode === 'free' && whisper === undefined;
	const together = shared ? { speaker: access.character?.name ?? user.name, shared: true, queue } : {};
	let accepted;
	try {
		accepted = await acceptTurn(app, s, {
			userId: user.id,
			tier: user.tier,
			text: body.text,
			idempotencyKey: body.idempotencyKey,
			payer,
			whisper,
			...together
		});
	} catch (err) {
		if (taken && access) {
			await giveBackTurn(app, s.id, taken);
			await tableChanged(app, access.session);
		}
		throw err;
	}
	// Wake event streams for turn.accepted; kick even on a resend, in case the first request's process died before it could.
	if (accepted.created) app.bus.notify(s.id);
	app.runner.kick(s.id);
	return { turn: { turnId: accepted.turnId, status: accepted.status }, created: accepted.created };
}

/** The player turn `turnId` of this session, or a 404. */
async function playerTurn(s: SessionDb, turnId: string | undefined): Promise<TurnRow> {
	if (!turnId || turnId.length > MAX_TURN_ID_CHARS) throw notFound('No such turn in this session.');
	const row = await playerTurnById(s.db, turnId);
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
 * its runner sees the request (the turn then writes nothing). 409 once the turn has finished (or, a queued
 * line, was taken by a turn that answers it). `access`: a member of a shared table, who may cancel only
 * their own line still waiting (403 OWNER_ONLY otherwise).
 */
export async function cancelTurn(
	app: Kantera,
	s: SessionDb,
	turnId: string | undefined,
	access?: Pick<SessionAccess, 'role'> & { userId: string }
): Promise<TurnRow> {
	const turn = await playerTurn(s, turnId);
	// At a shared table a player may take back their own queued line before a turn takes it; stopping the GM is the owner's.
	if (access && access.role !== 'owner' && (turn.senderId !== access.userId || turn.status === 'running')) {
		throw new ApiError(403, 'OWNER_ONLY', "Only the session's owner can stop a turn; you can take back your own line while it waits.");
	}
	if (FINISHED.has(turn.status))
		throw new ApiError(409, 'TURN_FINISHED', `The turn has already finished (${turn.status}); there is nothing to cancel.`);
	const row = await app.runner.cancel(s, turn.id);
	if (row) return row;
	// It finished between the read and the cancel.
	const now = await playerTurn(s, turn.id);
	throw new ApiError(409, 'TURN_FINISHED', `The turn has already finished (${now.status}); there is nothing to cancel.`);
}

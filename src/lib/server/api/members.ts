/**
 * Play together through the API: invitations (the owner's), accepting one, the members and the turn order.
 * Every change to who sits at the table rewrites the GM's table note (session-setup/table.ts) and wakes the
 * session's streams; a member who loses their seat loses their streams at once.
 */
import * as v from 'valibot';
import {
	acceptInvitation,
	createInvitation,
	INVITATION_MAX_HOURS,
	MAX_PLAYERS,
	membersOf,
	removeMember,
	revokeInvitation,
	setSkipAfter,
	setTurnMode,
	skipTurn,
	tableChanged,
	takeTurn,
	type PlaySession
} from '../sessions';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import type { InvitationAcceptedDto, InvitationCreatedDto, MembersDto, TurnMode } from '../../types/members';
import { withoutControlCharacters } from '../validation';
import { sessionFor } from './access';
import { ApiError, notFound } from './errors';

export const CHARACTER_NAME_MAX = 60;
export const CHARACTER_LOOK_MAX = 500;
export const CHARACTER_SHEET_MAX = 2000;

const text = (what: string, max: number) =>
	v.pipe(
		v.string(`${what} must be a string`),
		withoutControlCharacters(what),
		v.trim(),
		v.maxLength(max, `${what} has at most ${max} characters`)
	);

export const CreateInvitationBody = v.strictObject({
	expiresInHours: v.optional(
		v.pipe(
			v.number('expiresInHours must be a number'),
			v.integer('expiresInHours must be a whole number'),
			v.minValue(1, 'expiresInHours must be at least 1'),
			v.maxValue(INVITATION_MAX_HOURS, `expiresInHours must be at most ${INVITATION_MAX_HOURS}`)
		)
	),
	maxUses: v.optional(
		v.pipe(
			v.number('maxUses must be a number'),
			v.integer('maxUses must be a whole number'),
			v.minValue(1, 'maxUses must be at least 1'),
			v.maxValue(MAX_PLAYERS - 1, `maxUses must be at most ${MAX_PLAYERS - 1} (the seats besides the owner's)`)
		)
	)
});

export const AcceptInvitationBody = v.strictObject({
	character: v.optional(
		v.strictObject({
			name: v.pipe(text('character.name', CHARACTER_NAME_MAX), v.minLength(1, 'character.name must not be empty')),
			look: v.optional(text('character.look', CHARACTER_LOOK_MAX)),
			sheet: v.optional(text('character.sheet', CHARACTER_SHEET_MAX))
		})
	)
});

export const PassBody = v.strictObject({
	/** The owner skips an absent player by naming the seat whose turn it is; a player passes their own turn without it. */
	seat: v.optional(v.pipe(v.number('seat must be a number'), v.integer('seat must be a whole number')))
});

export async function membersFor(app: Kantera, user: AuthUser, id: string | undefined): Promise<MembersDto> {
	const { session } = await sessionFor(app, user, id, 'member');
	return membersOf(app, session);
}

export async function inviteTo(
	app: Kantera,
	user: AuthUser,
	id: string | undefined,
	body: v.InferOutput<typeof CreateInvitationBody>,
	origin: string
): Promise<InvitationCreatedDto> {
	const { session } = await sessionFor(app, user, id, 'owner');
	const made = await createInvitation(app, session.id, body);
	return {
		id: made.id,
		token: made.token,
		url: `${origin}/invite/${made.token}`,
		expiresAt: made.expiresAt.toISOString(),
		maxUses: made.maxUses
	};
}

export async function uninvite(app: Kantera, user: AuthUser, id: string | undefined, invitationId: string | undefined): Promise<void> {
	const { session } = await sessionFor(app, user, id, 'owner');
	if (!invitationId || !(await revokeInvitation(app, session.id, invitationId))) throw notFound('No such invitation in this session.');
}

/** Takes a seat; the character is the one written on joining, or one named after the account. */
export async function acceptInvite(
	app: Kantera,
	user: AuthUser,
	token: string | undefined,
	body: v.InferOutput<typeof AcceptInvitationBody>
): Promise<InvitationAcceptedDto> {
	const character = body.character ?? { name: user.name.slice(0, CHARACTER_NAME_MAX) };
	const seat = await acceptInvitation(app, user.id, token ?? '', character);
	const { session } = await sessionFor(app, user, seat.sessionId, 'member');
	await tableChanged(app, session);
	return seat;
}

/** The owner removes a player, or a player leaves (`me` names oneself); their streams end now. The owner cannot leave their own session (delete it instead). */
export async function dropMember(app: Kantera, user: AuthUser, id: string | undefined, member: string | undefined): Promise<void> {
	const access = await sessionFor(app, user, id, 'member');
	const memberId = member === 'me' ? user.id : member;
	const self = memberId === user.id;
	if (access.role !== 'owner' && !self) throw new ApiError(403, 'OWNER_ONLY', "Only the session's owner can remove another player.");
	if (access.role === 'owner' && self) {
		throw new ApiError(409, 'OWNER_CANNOT_LEAVE', 'The owner cannot leave their own session; delete it instead.');
	}
	if (!memberId || !(await removeMember(app, access.session.id, memberId, self ? 'left' : 'removed'))) {
		throw notFound('No such player in this session.');
	}
	app.bus.accessChanged(access.session.id);
	await tableChanged(app, access.session);
}

/** The owner switches between `free` and `round`, or sets how long a seat may keep the table waiting. */
export async function changeTurnRules(
	app: Kantera,
	session: PlaySession,
	rules: { turnMode?: TurnMode; skipAfterSeconds?: number }
): Promise<void> {
	if (rules.turnMode === undefined && rules.skipAfterSeconds === undefined) return;
	if (rules.turnMode !== undefined) await setTurnMode(app, session.id, rules.turnMode);
	if (rules.skipAfterSeconds !== undefined) await setSkipAfter(app, session.id, rules.skipAfterSeconds);
	await tableChanged(app, session);
}

/**
 * In `round` mode: the seat whose turn it is passes, or the owner skips it once it has kept the table waiting
 * the session's `skipAfterSeconds` (409 TOO_EARLY_TO_SKIP before). 409 NOT_YOUR_TURN otherwise.
 */
export async function passTurn(
	app: Kantera,
	user: AuthUser,
	id: string | undefined,
	body: v.InferOutput<typeof PassBody>
): Promise<MembersDto> {
	const access = await sessionFor(app, user, id, 'member');
	if (body.seat !== undefined && body.seat !== access.seat && access.role !== 'owner') {
		throw new ApiError(403, 'OWNER_ONLY', "Only the session's owner can skip another player's turn.");
	}
	const seat = body.seat ?? access.seat;
	const taken = seat !== access.seat ? await skipTurn(app, access.session.id, seat) : await takeTurn(app, access.session.id, seat);
	if (!taken) throw new ApiError(409, 'NOT_ROUND', 'The session plays in free turn order: there is no turn to pass.');
	return tableChanged(app, access.session);
}

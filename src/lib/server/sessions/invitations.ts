/**
 * Invitation links to a session: unguessable (256 random bits), stored only as their SHA-256 like API tokens,
 * expiring, revocable, with a number of uses; a seat is taken in one write batch whose every check is in
 * its SQL, so twenty people accepting at once on a session with three free seats fill exactly three.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb } from '../db';
import { randomSecret, sha256Hex } from '../auth';
import { MAX_PLAYERS } from './members';
import { PlaySessionError } from './errors';
import { OWNER_SEAT, type Character, type InvitationAcceptedDto } from '../../types/members';

const { sessionInvitations, sessionMembers, playSessions, users } = controlSchema;

type Deps = { control: ControlDb };

/** Recognisable in logs and secret scanners, like API tokens' `kt_`. */
const TOKEN_PREFIX = 'ki_';
const TOKEN_PATTERN = /^ki_[A-Za-z0-9_-]{43}$/;
const HOUR_MS = 60 * 60 * 1000;
export const INVITATION_DEFAULT_HOURS = 72;
export const INVITATION_MAX_HOURS = 24 * 30;

/** `gone`: expired, revoked or used up (410); `full`: no seat left (409); `removed`: the owner removed this user (403). */
export class InvitationError extends PlaySessionError {
	constructor(
		readonly code: 'not_found' | 'gone' | 'full' | 'removed',
		message: string
	) {
		super(message);
	}
}

export interface CreatedInvitation {
	id: string;
	token: string;
	expiresAt: Date;
	maxUses: number;
}

export async function createInvitation(
	deps: Deps,
	sessionId: string,
	opts: { expiresInHours?: number; maxUses?: number },
	now = Date.now()
): Promise<CreatedInvitation> {
	const token = TOKEN_PREFIX + randomSecret();
	const id = newId();
	const expiresAt = now + (opts.expiresInHours ?? INVITATION_DEFAULT_HOURS) * HOUR_MS;
	const maxUses = opts.maxUses ?? MAX_PLAYERS - 1;
	await deps.control.db
		.insert(sessionInvitations)
		.values({ id, sessionId, tokenHash: sha256Hex(token), createdAt: now, expiresAt, maxUses });
	return { id, token, expiresAt: new Date(expiresAt), maxUses };
}

/** False when the session has no such invitation (or it was revoked before). */
export async function revokeInvitation(deps: Deps, sessionId: string, invitationId: string, now = Date.now()): Promise<boolean> {
	const rows = await deps.control.db
		.update(sessionInvitations)
		.set({ revokedAt: now })
		.where(and(eq(sessionInvitations.id, invitationId), eq(sessionInvitations.sessionId, sessionId), isNull(sessionInvitations.revokedAt)))
		.returning({ id: sessionInvitations.id });
	return rows.length > 0;
}

/**
 * Takes a seat with the invitation `token`. The gate is one UPDATE of the invitation's use count whose
 * condition holds every rule (open, not used up, a seat free, not in the session already, not removed);
 * the member row goes in, in the same batch, only if it passed. A user already seated gets their seat back
 * (a second click is harmless); the owner gets seat 1.
 */
export async function acceptInvitation(
	deps: Deps,
	userId: string,
	token: string,
	character: Character,
	now = Date.now()
): Promise<InvitationAcceptedDto> {
	if (!TOKEN_PATTERN.test(token)) throw new InvitationError('not_found', 'No such invitation.');
	const hash = sha256Hex(token);
	const seated = sql`(SELECT count(*) FROM session_members m WHERE m.session_id = session_invitations.session_id AND m.seat IS NOT NULL)`;
	const db = deps.control.db;
	await db.batch([
		db.run(sql`UPDATE session_invitations SET uses = uses + 1
			WHERE token_hash = ${hash} AND revoked_at IS NULL AND expires_at > ${now} AND uses < max_uses
			AND ${seated} < ${MAX_PLAYERS - 1}
			AND NOT EXISTS (SELECT 1 FROM session_members m WHERE m.session_id = session_invitations.session_id AND m.user_id = ${userId})
			AND NOT EXISTS (SELECT 1 FROM play_sessions p WHERE p.id = session_invitations.session_id AND p.owner_id = ${userId})`),
		db.run(sql`INSERT INTO session_members (session_id, user_id, seat, character_name, character_look, character_sheet, joined_at)
			SELECT i.session_id, ${userId},
				max(${OWNER_SEAT}, coalesce((SELECT max(seat) FROM session_members m WHERE m.session_id = i.session_id), 0)) + 1,
				${character.name}, ${character.look ?? null}, ${character.sheet ?? null}, ${now}
			FROM session_invitations i WHERE i.token_hash = ${hash} AND changes() = 1`)
	]);
	return explain(deps, userId, hash, now);
}

/** After the batch: the seat the user holds now, or why there is none. */
async function explain(deps: Deps, userId: string, hash: string, now: number): Promise<InvitationAcceptedDto> {
	const db = deps.control.db;
	const [invitation] = await db.select().from(sessionInvitations).where(eq(sessionInvitations.tokenHash, hash)).limit(1);
	if (!invitation) throw new InvitationError('not_found', 'No such invitation.');
	const sessionId = invitation.sessionId;
	const [session] = await db.select({ ownerId: playSessions.ownerId }).from(playSessions).where(eq(playSessions.id, sessionId));
	if (session?.ownerId === userId) return { sessionId, seat: OWNER_SEAT };
	const [member] = await db
		.select({ seat: sessionMembers.seat })
		.from(sessionMembers)
		.where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)));
	if (member?.seat != null) return { sessionId, seat: member.seat };
	if (member) throw new InvitationError('removed', 'The owner of this session removed you from it.');
	if (invitation.revokedAt !== null) throw new InvitationError('gone', 'This invitation was revoked.');
	if (invitation.expiresAt <= now) throw new InvitationError('gone', 'This invitation has expired.');
	if (invitation.uses >= invitation.maxUses) throw new InvitationError('gone', 'This invitation has been used as many times as it allows.');
	throw new InvitationError('full', `Every seat at this session is taken (${MAX_PLAYERS} players in all).`);
}

/** What the invitation page shows before anyone joins: the session's title and host, or why the link is no use. */
export async function previewInvitation(
	deps: Deps,
	token: string,
	now = Date.now()
): Promise<{ sessionId: string; title: string; host: string }> {
	if (!TOKEN_PATTERN.test(token)) throw new InvitationError('not_found', 'No such invitation.');
	const [row] = await deps.control.db
		.select({ invitation: sessionInvitations, title: playSessions.title, host: users.name })
		.from(sessionInvitations)
		.innerJoin(playSessions, eq(playSessions.id, sessionInvitations.sessionId))
		.innerJoin(users, eq(users.id, playSessions.ownerId))
		.where(eq(sessionInvitations.tokenHash, sha256Hex(token)))
		.limit(1);
	if (!row) throw new InvitationError('not_found', 'No such invitation.');
	const i = row.invitation;
	if (i.revokedAt !== null || i.expiresAt <= now || i.uses >= i.maxUses)
		throw new InvitationError('gone', 'This invitation can no longer be used.');
	return { sessionId: i.sessionId, title: row.title, host: row.host };
}

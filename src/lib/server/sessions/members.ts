/**
 * Play together: who may see and play a session. The owner holds seat 1; players join through an invitation
 * (`invitations.ts`) and take the next seats. `sessionAccess` is the one check every session route goes
 * through: a stranger, a removed member and a malformed id all get the same PlaySessionNotFoundError.
 */
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { controlSchema, isSessionId, type ControlDb } from '../db';
import { PlaySessionNotFoundError } from './errors';
import { toPlaySession, type PlaySession } from './index-store';
import { MEMBER_ROLES, OWNER_SEAT, type Character, type MemberDto, type MemberRole, type TurnMode } from '../../types/members';
import type { Tier } from '../../types/account';

const { playSessions, sessionMembers, users } = controlSchema;

/** The default number of seats, the owner's included (issue 25: "default 4 players in all"). */
export const MAX_PLAYERS = 4;

type IndexDeps = { control: ControlDb };

export interface SessionAccess {
	session: PlaySession;
	role: MemberRole;
	seat: number;
	/** The one the turn's LLM cost and model follow: the owner, whoever sends. */
	owner: { id: string; name: string; tier: Tier };
	/** The player's character; null for the owner (the world's own player character). */
	character: Character | null;
	turnMode: TurnMode;
	/** How many players sit at the table besides the owner: 0 for a session played alone. */
	players: number;
}

const characterOf = (r: { characterName: string; characterLook: string | null; characterSheet: string | null }): Character => ({
	name: r.characterName,
	...(r.characterLook ? { look: r.characterLook } : {}),
	...(r.characterSheet ? { sheet: r.characterSheet } : {})
});

/**
 * The user's place in session `id`: owner, or a seated player. Everything else (no such session, a malformed
 * id, a stranger, a removed member) is PlaySessionNotFoundError, so nobody can tell a session exists.
 */
export async function sessionAccess(deps: IndexDeps, userId: string, id: unknown): Promise<SessionAccess> {
	if (!isSessionId(id)) throw new PlaySessionNotFoundError();
	const [row] = await deps.control.db
		.select({
			session: playSessions,
			owner: { id: users.id, name: users.name, tier: users.tier },
			member: sessionMembers,
			players: sql<number>`(SELECT count(*) FROM session_members m WHERE m.session_id = ${playSessions.id} AND m.seat IS NOT NULL)`
		})
		.from(playSessions)
		.innerJoin(users, eq(users.id, playSessions.ownerId))
		.leftJoin(
			sessionMembers,
			and(eq(sessionMembers.sessionId, playSessions.id), eq(sessionMembers.userId, userId), isNotNull(sessionMembers.seat))
		)
		.where(and(eq(playSessions.id, id), or(eq(playSessions.ownerId, userId), isNotNull(sessionMembers.seat))))
		.limit(1);
	if (!row) throw new PlaySessionNotFoundError();
	const session = toPlaySession(row.session);
	const base = { session, owner: row.owner, turnMode: row.session.turnMode, players: Number(row.players) };
	if (row.session.ownerId === userId) return { ...base, role: 'owner', seat: OWNER_SEAT, character: null };
	const member = row.member;
	if (!member || member.seat === null) throw new PlaySessionNotFoundError();
	return { ...base, role: 'player', seat: member.seat, character: characterOf(member) };
}

export interface SessionAsMember extends PlaySession {
	role: MemberRole;
}

/** The sessions the user owns or holds a seat in, most recently updated first. */
export async function listMemberSessions(deps: IndexDeps, userId: string): Promise<SessionAsMember[]> {
	const seated = deps.control.db
		.select({ id: sessionMembers.sessionId })
		.from(sessionMembers)
		.where(and(eq(sessionMembers.userId, userId), isNotNull(sessionMembers.seat)));
	const rows = await deps.control.db
		.select()
		.from(playSessions)
		.where(or(eq(playSessions.ownerId, userId), inArray(playSessions.id, seated)))
		.orderBy(desc(playSessions.updatedAt), playSessions.id);
	return rows.map((r) => ({ ...toPlaySession(r), role: r.ownerId === userId ? MEMBER_ROLES[0] : MEMBER_ROLES[1] }));
}

/** Everyone seated in the session, the owner first, then by seat. */
export async function listMembers(deps: IndexDeps, session: Pick<PlaySession, 'id' | 'ownerId'>): Promise<MemberDto[]> {
	const [owner] = await deps.control.db.select({ name: users.name }).from(users).where(eq(users.id, session.ownerId));
	const rows = await deps.control.db
		.select({ member: sessionMembers, name: users.name })
		.from(sessionMembers)
		.innerJoin(users, eq(users.id, sessionMembers.userId))
		.where(and(eq(sessionMembers.sessionId, session.id), isNotNull(sessionMembers.seat)))
		.orderBy(asc(sessionMembers.seat));
	const players: MemberDto[] = rows.map(({ member, name }) => ({
		userId: member.userId,
		name,
		seat: member.seat ?? 0,
		role: 'player',
		character: characterOf(member)
	}));
	return [{ userId: session.ownerId, name: owner?.name ?? '', seat: OWNER_SEAT, role: 'owner', character: null }, ...players];
}

/**
 * Takes the player's seat away. `removed`: the owner removed them, so the row stays (an invitation still open
 * does not let them back in); a player who leaves is simply gone and may join again. False if they held no seat.
 */
export async function removeMember(deps: IndexDeps, sessionId: string, userId: string, how: 'removed' | 'left', now = Date.now()) {
	const where = and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId), isNotNull(sessionMembers.seat));
	const gone =
		how === 'left'
			? await deps.control.db.delete(sessionMembers).where(where).returning({ userId: sessionMembers.userId })
			: await deps.control.db
					.update(sessionMembers)
					.set({ seat: null, removedAt: now })
					.where(where)
					.returning({ userId: sessionMembers.userId });
	return gone.length > 0;
}

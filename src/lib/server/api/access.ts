/**
 * The one authorisation of every session route: who the user is at the session's table (`sessionAccess`),
 * and whether that is enough for what the route does.
 */
import { sessionAccess, type SessionAccess } from '../sessions';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import { ApiError } from './errors';

/** What a route needs of the user: to be the owner (settings, time travel, invitations…) or any seated member (read, play). */
export type SessionNeed = 'owner' | 'member';

/**
 * The one authorisation of a session route: the user's place in the session, or a 404 (PlaySessionNotFoundError)
 * for a stranger, a removed member or no such session; a member asking for an owner's action gets 403 OWNER_ONLY
 * (they know the session exists, and the answer says why).
 */
export async function sessionFor(app: Kantera, user: AuthUser, id: string | undefined, need: SessionNeed): Promise<SessionAccess> {
	const access = await sessionAccess(app, user.id, id);
	if (need === 'owner' && access.role !== 'owner') throw new ApiError(403, 'OWNER_ONLY', "Only the session's owner can do this.");
	return access;
}

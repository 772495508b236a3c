/**
 * Cookie sessions. The browser holds a random token; the database holds only its SHA-256, so a leaked
 * table cannot be replayed. Expiry slides: a session used in the second half of its life is extended.
 */
import { eq, lt } from 'drizzle-orm';
import { controlSchema } from '../db';
import { randomSecret, sha256Hex } from './secrets';
import { activeUserById, type AuthDeps, type AuthUser } from './users';

const { authSessions } = controlSchema;

export const SESSION_COOKIE = 'kantera_session';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CookieSession {
	token: string;
	expiresAt: Date;
}

const lifetimeMs = (deps: AuthDeps) => deps.config.auth.sessionDays * DAY_MS;

export async function createCookieSession(deps: AuthDeps, userId: string, now = Date.now()): Promise<CookieSession> {
	// Housekeeping rides on sign-in, which is rare next to page views: expired rows never pile up.
	await purgeExpiredCookieSessions(deps, now);
	const token = randomSecret();
	const expiresAt = now + lifetimeMs(deps);
	await deps.control.db.insert(authSessions).values({ id: sha256Hex(token), userId, createdAt: now, expiresAt });
	return { token, expiresAt: new Date(expiresAt) };
}

export interface ValidatedSession {
	user: AuthUser;
	expiresAt: Date;
	/** True when the expiry moved, so the cookie must be sent again with the new date. */
	renewed: boolean;
}

/** Resolves a cookie token to its user, or null when it is unknown or expired (an expired row is removed). */
export async function validateCookieSession(deps: AuthDeps, token: string, now = Date.now()): Promise<ValidatedSession | null> {
	const id = sha256Hex(token);
	const [row] = await deps.control.db.select().from(authSessions).where(eq(authSessions.id, id)).limit(1);
	if (!row) return null;
	if (row.expiresAt <= now) {
		await deps.control.db.delete(authSessions).where(eq(authSessions.id, id));
		return null;
	}
	const user = await activeUserById(deps, row.userId);
	if (!user) return null;
	const lifetime = lifetimeMs(deps);
	// Renewing on every request would write on every request; halfway is the usual compromise.
	if (row.expiresAt - now < lifetime / 2) {
		const expiresAt = now + lifetime;
		await deps.control.db.update(authSessions).set({ expiresAt }).where(eq(authSessions.id, id));
		return { user, expiresAt: new Date(expiresAt), renewed: true };
	}
	return { user, expiresAt: new Date(row.expiresAt), renewed: false };
}

export async function deleteCookieSession(deps: AuthDeps, token: string): Promise<void> {
	await deps.control.db.delete(authSessions).where(eq(authSessions.id, sha256Hex(token)));
}

/** Drops every expired session row; cheap housekeeping the app may run now and then. */
async function purgeExpiredCookieSessions(deps: AuthDeps, now = Date.now()): Promise<void> {
	await deps.control.db.delete(authSessions).where(lt(authSessions.expiresAt, now));
}

/** Cookie attributes: httpOnly (no script access), lax (sent on top-level navigation only), secure on https. */
export function sessionCookieOptions(url: URL, expiresAt: Date) {
	return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: url.protocol === 'https:', expires: expiresAt };
}

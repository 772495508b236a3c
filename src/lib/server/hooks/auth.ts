/**
 * Resolves `locals.user` for every request: a Bearer token wins over the session cookie.
 * A bad Bearer token is answered with 401 at once: an API client must learn its token is wrong, not be
 * treated as anonymous.
 */
import { json, type Handle, type Cookies } from '@sveltejs/kit';
import { getApp } from '../app';
import { SESSION_COOKIE, authenticateToken, validateCookieSession, sessionCookieOptions, InvalidTokenError } from '../auth';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export const handleAuth: Handle = async ({ event, resolve }) => {
	event.locals.user = null;
	const app = await getApp();
	const authorization = event.request.headers.get('authorization');
	if (authorization !== null) {
		try {
			const token = BEARER.exec(authorization)?.[1];
			if (!token) throw new InvalidTokenError('malformed');
			event.locals.user = await authenticateToken(app, token);
		} catch (err) {
			if (!(err instanceof InvalidTokenError)) throw err;
			return json(
				{ message: err.message, code: 'INVALID_TOKEN' },
				{ status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"', 'cache-control': 'no-store' } }
			);
		}
		return resolve(event);
	}
	const token = event.cookies.get(SESSION_COOKIE);
	if (token) {
		const session = await validateCookieSession(app, token);
		if (!session) {
			clearSessionCookie(event.cookies, event.url);
		} else {
			event.locals.user = session.user;
			if (session.renewed) event.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(event.url, session.expiresAt));
		}
	}
	return resolve(event);
};

export function setSessionCookie(cookies: Cookies, url: URL, token: string, expiresAt: Date): void {
	cookies.set(SESSION_COOKIE, token, sessionCookieOptions(url, expiresAt));
}

export function clearSessionCookie(cookies: Cookies, url: URL): void {
	cookies.delete(SESSION_COOKIE, { ...sessionCookieOptions(url, new Date(0)), expires: undefined });
}

/**
 * Resolves `locals.user` for every request: a Bearer token wins over the session cookie.
 * A bad Bearer token is answered with 401 at once: an API client must learn its token is wrong, not be
 * treated as anonymous.
 */
import { json, type Handle, type Cookies } from '@sveltejs/kit';
import { getApp, type App as Kantera } from '../app';
import { METRICS_PATH } from '../ops';
import {
	SESSION_COOKIE,
	authenticateToken,
	createCookieSession,
	validateCookieSession,
	sessionCookieOptions,
	InvalidTokenError
} from '../auth';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser sent this request from a page of another origin. SvelteKit's CSRF check covers
 * form content types only, and the sign-in cookie (SameSite=Lax) is also sent by pages on another
 * port of the same host (same site, other origin): a body-less or JSON `fetch` from there would act
 * as the signed-in player. Browsers send `Origin` on every such request (and `Sec-Fetch-Site`); a
 * client that sends neither (curl with a cookie) is not a browser page and is let through.
 */
export function isCrossOriginRequest(request: Request, url: URL): boolean {
	if (SAFE_METHODS.has(request.method)) return false;
	const origin = request.headers.get('origin');
	if (origin !== null) return origin !== url.origin;
	const site = request.headers.get('sec-fetch-site');
	return site !== null && site !== 'same-origin' && site !== 'none';
}

export const handleAuth: Handle = async ({ event, resolve }) => {
	event.locals.user = null;
	// The scrape's Bearer token is the operator's metrics token, not an API token: the route checks it.
	if (event.url.pathname === METRICS_PATH) return resolve(event);
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
		} else if (isCrossOriginRequest(event.request, event.url)) {
			return json(
				{ message: 'Requests that change something must come from this site’s own pages (or use an API token).', code: 'CROSS_ORIGIN' },
				{ status: 403, headers: { 'cache-control': 'no-store' } }
			);
		} else {
			event.locals.user = session.user;
			if (session.renewed) event.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(event.url, session.expiresAt));
		}
	}
	return resolve(event);
};

function setSessionCookie(cookies: Cookies, url: URL, token: string, expiresAt: Date): void {
	cookies.set(SESSION_COOKIE, token, sessionCookieOptions(url, expiresAt));
}

/** Opens a cookie session for a user who has just signed in (with a password or a provider, or on sign-up). */
export async function startCookieSession(app: Kantera, cookies: Cookies, url: URL, userId: string): Promise<void> {
	const session = await createCookieSession(app, userId);
	setSessionCookie(cookies, url, session.token, session.expiresAt);
}

export function clearSessionCookie(cookies: Cookies, url: URL): void {
	cookies.delete(SESSION_COOKIE, { ...sessionCookieOptions(url, new Date(0)), expires: undefined });
}

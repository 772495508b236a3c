/** Request-level helpers shared by routes: who is signed in, where to send them, reading forms. */
import { error, redirect } from '@sveltejs/kit';
import type { AuthUser } from '../auth';

/** The signed-in user, or a redirect to sign-in that brings them back here afterwards. */
export function requireUser(locals: App.Locals, url: URL): AuthUser {
	if (locals.user) return locals.user;
	redirect(303, `/signin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** An admin, or a 404 for anyone else (the page does not exist for them); sign-in first when signed out. */
export function requireAdmin(locals: App.Locals, url: URL): AuthUser {
	const user = requireUser(locals, url);
	if (!user.isAdmin) error(404, 'Not found');
	return user;
}

/**
 * Browsers drop TAB, CR and LF inside a URL and read a backslash as "/", so "/<TAB>/evil.example" or
 * "/<backslash>evil" would leave the site, and a raw control character cannot go into a Location header at all.
 */
const UNSAFE_IN_TARGET = /[\p{Cc}\\]/u;

/**
 * A path of this site to redirect to after a form (sign-in, the language switch), or "/". The target
 * is resolved against the site's own origin and kept only when it stays there; what is returned is the
 * resolved path, re-serialised, so it is always a valid header value.
 */
export function safeRedirectTarget(target: string | null, site: URL): string {
	if (!target || !target.startsWith('/') || target.startsWith('//') || UNSAFE_IN_TARGET.test(target)) return '/';
	let resolved: URL;
	try {
		resolved = new URL(target, site.origin);
	} catch {
		return '/';
	}
	if (resolved.origin !== site.origin) return '/';
	return resolved.pathname + resolved.search + resolved.hash;
}

/** A text field of a submitted form; a missing field or an uploaded file reads as ''. */
export function formText(data: FormData, key: string): string {
	const value = data.get(key);
	return typeof value === 'string' ? value : '';
}

/** Request-level helpers shared by routes: who is signed in, where to send them, reading forms. */
import { error, redirect } from '@sveltejs/kit';
import type { AuthUser } from '../auth';

/** The signed-in user, or a redirect to sign-in that brings them back here afterwards. */
export function requireUser(locals: App.Locals, url: URL): AuthUser {
	if (locals.user) return locals.user;
	redirect(303, `/signin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** For JSON endpoints: 401 with a message instead of a redirect. */
export function requireApiUser(locals: App.Locals): AuthUser {
	if (locals.user) return locals.user;
	error(401, { message: 'Sign in, or send "Authorization: Bearer <token>" with a personal API token.', code: 'UNAUTHENTICATED' });
}

/** Only same-site paths: "//evil.example" and "/\evil" would leave the site. */
export function safeRedirectTarget(target: string | null): string {
	if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
	return target;
}

/** A text field of a submitted form; a missing field or an uploaded file reads as ''. */
export function formText(data: FormData, key: string): string {
	const value = data.get(key);
	return typeof value === 'string' ? value : '';
}

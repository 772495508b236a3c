import { redirect } from '@sveltejs/kit';
import { LANGUAGE_COOKIE } from '$lib/i18n/all-languages';
import { isLanguage } from '$lib/types/settings';
import { formText, safeRedirectTarget } from '$lib/server/hooks';
import type { RequestHandler } from './$types';

/** A year: the choice is a preference, not a session. */
const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The language switch in the nav: a plain form post (works without JavaScript) that remembers the
 * choice in a cookie and goes back to the page it came from. An unknown value forgets the choice,
 * so the browser's language applies again.
 */
export const POST: RequestHandler = async ({ request, cookies, url }) => {
	const data = await request.formData();
	const language = formText(data, 'language');
	if (isLanguage(language)) {
		cookies.set(LANGUAGE_COOKIE, language, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: LANGUAGE_COOKIE_MAX_AGE_S });
	} else {
		cookies.delete(LANGUAGE_COOKIE, { path: '/' });
	}
	redirect(303, safeRedirectTarget(formText(data, 'redirectTo'), url));
};

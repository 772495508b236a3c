import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	signUp,
	createCookieSession,
	signupOpen,
	authErrorText,
	AuthValidationError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError,
	LocalAccountsDisabledError
} from '$lib/server/auth';
import { clientAddress, formText, setSessionCookie } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	if (locals.user) redirect(303, '/');
	const app = await getApp();
	return { open: await signupOpen(app), localAccounts: app.config.auth.localAccounts };
};

export const actions = {
	default: async (event) => {
		const { request, cookies, url, locals } = event;
		// Refusals come back in the reader's language, like the rest of the page.
		const language = locals.language ?? 'en';
		const data = await request.formData();
		const name = formText(data, 'name');
		const password = formText(data, 'password');
		const app = await getApp();
		let userId: string;
		try {
			const user = await signUp(app, { name, password }, { address: clientAddress(event), language });
			userId = user.id;
		} catch (err) {
			// The password is never sent back: the form comes back with the name only.
			if (err instanceof AuthValidationError) return fail(400, { name, errors: err.fields });
			if (err instanceof UsernameTakenError) return fail(400, { name, errors: { name: authErrorText(err, language) } });
			if (err instanceof SignupDisabledError || err instanceof LocalAccountsDisabledError)
				return fail(403, { name, errors: { form: authErrorText(err, language) } });
			if (err instanceof SignInThrottledError) {
				event.setHeaders({ 'retry-after': String(err.retryAfterSeconds) });
				return fail(429, { name, errors: { form: authErrorText(err, language) } });
			}
			throw err;
		}
		const session = await createCookieSession(app, userId);
		setSessionCookie(cookies, url, session.token, session.expiresAt);
		redirect(303, '/');
	}
} satisfies Actions;

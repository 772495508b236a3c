import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	signUp,
	signupOpen,
	authErrorText,
	AuthValidationError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError,
	LocalAccountsDisabledError
} from '$lib/server/auth';
import { credentialsAction } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	if (locals.user) redirect(303, '/');
	const app = await getApp();
	return { open: await signupOpen(app), localAccounts: app.config.auth.localAccounts };
};

export const actions = {
	default: (event) =>
		credentialsAction(
			event,
			signUp,
			// The password is never sent back: the form comes back with the name only.
			(err, name, language) => {
				if (err instanceof AuthValidationError) return fail(400, { name, errors: err.fields });
				if (err instanceof UsernameTakenError) return fail(400, { name, errors: { name: authErrorText(err, language) } });
				if (err instanceof SignupDisabledError || err instanceof LocalAccountsDisabledError)
					return fail(403, { name, errors: { form: authErrorText(err, language) } });
				if (err instanceof SignInThrottledError) return fail(429, { name, errors: { form: authErrorText(err, language) } });
				return undefined;
			},
			'/'
		)
} satisfies Actions;

import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	signIn,
	authErrorText,
	AccountSuspendedError,
	InvalidCredentialsError,
	LocalAccountsDisabledError,
	SignInThrottledError
} from '$lib/server/auth';
import { credentialsAction, safeRedirectTarget } from '$lib/server/hooks';
import type { SignInFlowProblem } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

const PROBLEMS: readonly SignInFlowProblem[] = [
	'state',
	'token',
	'denied',
	'provider',
	'signup_closed',
	'in_use',
	'not_signed_in',
	'suspended'
];

export const load: PageServerLoad = async ({ locals, url }) => {
	const redirectTo = safeRedirectTarget(url.searchParams.get('redirectTo'), url);
	if (locals.user) redirect(303, redirectTo);
	const app = await getApp();
	const error = url.searchParams.get('error');
	return {
		providers: app.signIn.list(),
		localAccounts: app.config.auth.localAccounts,
		redirectTo,
		problem: PROBLEMS.find((p) => p === error) ?? null
	};
};

export const actions = {
	default: (event) =>
		credentialsAction(
			event,
			signIn,
			(err, name, language) => {
				if (err instanceof InvalidCredentialsError) return fail(400, { name, message: authErrorText(err, language) });
				if (err instanceof AccountSuspendedError) return fail(403, { name, message: authErrorText(err, language) });
				if (err instanceof LocalAccountsDisabledError) return fail(403, { name, message: authErrorText(err, language) });
				if (err instanceof SignInThrottledError) return fail(429, { name, message: authErrorText(err, language) });
				return undefined;
			},
			safeRedirectTarget(event.url.searchParams.get('redirectTo'), event.url)
		)
} satisfies Actions;

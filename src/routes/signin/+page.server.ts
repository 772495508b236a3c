import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	signIn,
	authErrorText,
	createCookieSession,
	InvalidCredentialsError,
	LocalAccountsDisabledError,
	SignInThrottledError
} from '$lib/server/auth';
import { clientAddress, formText, safeRedirectTarget, setSessionCookie } from '$lib/server/hooks';
import type { SignInFlowProblem } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

const PROBLEMS: readonly SignInFlowProblem[] = ['state', 'token', 'denied', 'provider', 'signup_closed', 'in_use', 'not_signed_in'];

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
	default: async (event) => {
		const { request, cookies, url, locals } = event;
		const language = locals.language ?? 'en';
		const data = await request.formData();
		const name = formText(data, 'name');
		const app = await getApp();
		let userId: string;
		try {
			userId = (await signIn(app, { name, password: formText(data, 'password') }, { address: clientAddress(event) })).id;
		} catch (err) {
			if (err instanceof InvalidCredentialsError) return fail(400, { name, message: authErrorText(err, language) });
			if (err instanceof LocalAccountsDisabledError) return fail(403, { name, message: authErrorText(err, language) });
			if (err instanceof SignInThrottledError) {
				event.setHeaders({ 'retry-after': String(err.retryAfterSeconds) });
				return fail(429, { name, message: authErrorText(err, language) });
			}
			throw err;
		}
		const session = await createCookieSession(app, userId);
		setSessionCookie(cookies, url, session.token, session.expiresAt);
		redirect(303, safeRedirectTarget(url.searchParams.get('redirectTo'), url));
	}
} satisfies Actions;

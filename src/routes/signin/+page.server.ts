import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { signIn, createCookieSession, InvalidCredentialsError, SignInThrottledError } from '$lib/server/auth';
import { clientAddress, formText, safeRedirectTarget, setSessionCookie } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ locals, url }) => {
	if (locals.user) redirect(303, safeRedirectTarget(url.searchParams.get('redirectTo'), url));
	return {};
};

export const actions = {
	default: async (event) => {
		const { request, cookies, url } = event;
		const data = await request.formData();
		const name = formText(data, 'name');
		const app = await getApp();
		let userId: string;
		try {
			userId = (await signIn(app, { name, password: formText(data, 'password') }, { address: clientAddress(event) })).id;
		} catch (err) {
			if (err instanceof InvalidCredentialsError) return fail(400, { name, message: err.message });
			if (err instanceof SignInThrottledError) {
				event.setHeaders({ 'retry-after': String(err.retryAfterSeconds) });
				return fail(429, { name, message: err.message });
			}
			throw err;
		}
		const session = await createCookieSession(app, userId);
		setSessionCookie(cookies, url, session.token, session.expiresAt);
		redirect(303, safeRedirectTarget(url.searchParams.get('redirectTo'), url));
	}
} satisfies Actions;

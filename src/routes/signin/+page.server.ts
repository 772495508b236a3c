import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { verifyCredentials, createCookieSession, InvalidCredentialsError } from '$lib/server/auth';
import { formText, safeRedirectTarget, setSessionCookie } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ locals, url }) => {
	if (locals.user) redirect(303, safeRedirectTarget(url.searchParams.get('redirectTo'), url));
	return {};
};

export const actions = {
	default: async ({ request, cookies, url }) => {
		const data = await request.formData();
		const name = formText(data, 'name');
		const app = await getApp();
		let userId: string;
		try {
			userId = (await verifyCredentials(app, { name, password: formText(data, 'password') })).id;
		} catch (err) {
			if (err instanceof InvalidCredentialsError) return fail(400, { name, message: err.message });
			throw err;
		}
		const session = await createCookieSession(app, userId);
		setSessionCookie(cookies, url, session.token, session.expiresAt);
		redirect(303, safeRedirectTarget(url.searchParams.get('redirectTo'), url));
	}
} satisfies Actions;

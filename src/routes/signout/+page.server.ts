import { redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { SESSION_COOKIE, deleteCookieSession } from '$lib/server/auth';
import { clearSessionCookie } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ locals }) => {
	if (!locals.user) redirect(303, '/');
	return {};
};

export const actions = {
	default: async ({ cookies, url }) => {
		const token = cookies.get(SESSION_COOKIE);
		if (token) await deleteCookieSession(await getApp(), token);
		clearSessionCookie(cookies, url);
		redirect(303, '/');
	}
} satisfies Actions;

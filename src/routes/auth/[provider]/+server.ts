/**
 * Starts a sign-in (or, with `?link=1` while signed in, a link) through a provider: 302 to the provider's
 * authorization page. An unknown or unconfigured provider is a 404.
 */
import { error, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { startFlow } from '$lib/server/auth';
import { safeRedirectTarget } from '$lib/server/hooks';
import { isSignInProvider } from '$lib/types/account';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ params, url, cookies, locals }) => {
	const app = await getApp();
	const client = isSignInProvider(params.provider) ? app.signIn.get(params.provider) : undefined;
	if (!client) error(404, 'No such sign-in provider on this server.');
	const link = url.searchParams.get('link') === '1';
	if (link && !locals.user) redirect(303, `/signin?redirectTo=${encodeURIComponent('/account')}`);
	const redirectTo = safeRedirectTarget(url.searchParams.get('redirectTo') ?? (link ? '/account' : '/'), url);
	let target: URL;
	try {
		target = await startFlow(client, { url, cookies, redirectTo, link });
	} catch (err) {
		console.warn(`[kantera] could not start sign-in via ${client.id}: ${err instanceof Error ? err.message : String(err)}`);
		redirect(303, `${link ? '/account' : '/signin'}?error=provider`);
	}
	redirect(302, target.href);
};

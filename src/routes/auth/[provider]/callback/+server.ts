/**
 * Where a provider sends the browser back (the redirect URI an operator registers). Checks the attempt
 * (state, PKCE, nonce), then signs in (creating the account on a first sign-in) or links the provider.
 */
import { error, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	finishFlow,
	linkIdentity,
	signInWithProvider,
	AccountSuspendedError,
	SignInFlowError,
	SignupDisabledError,
	type SignInFlowProblem
} from '$lib/server/auth';
import { safeRedirectTarget, startCookieSession } from '$lib/server/hooks';
import { isSignInProvider } from '$lib/types/account';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ params, url, cookies, locals }) => {
	const app = await getApp();
	const client = isSignInProvider(params.provider) ? app.signIn.get(params.provider) : undefined;
	if (!client) error(404, 'No such sign-in provider on this server.');
	let destination: string;
	let linking = false;
	try {
		const finished = await finishFlow(client, { url, cookies });
		linking = finished.link;
		if (finished.link) {
			if (!locals.user) throw new SignInFlowError('not_signed_in', 'The session ended before the link was made.');
			await linkIdentity(app, locals.user.id, finished.profile);
			destination = `/account?linked=${client.id}`;
		} else {
			const { user, created } = await signInWithProvider(app, finished.profile);
			await startCookieSession(app, cookies, url, user.id);
			// A new account first sees its proposed name, to keep or change.
			destination = created ? '/account?welcome=1' : safeRedirectTarget(finished.redirectTo, url);
		}
	} catch (err) {
		const problem: SignInFlowProblem | undefined =
			err instanceof SignInFlowError
				? err.problem
				: err instanceof SignupDisabledError
					? 'signup_closed'
					: err instanceof AccountSuspendedError
						? 'suspended'
						: undefined;
		if (!problem) throw err;
		// The reason goes to the log (never a token or a code); the page says it in the person's language.
		console.warn(`[kantera] sign-in via ${client.id} refused (${problem}): ${err instanceof Error ? err.message : String(err)}`);
		destination = `${linking || locals.user ? '/account' : '/signin'}?error=${problem}`;
	}
	redirect(303, destination);
};

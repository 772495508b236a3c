/** The sign-in and sign-up form posts: a name and a password in; a cookie session and a redirect out. */
import { redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { getApp, type App as Kantera } from '../app';
import { SignInThrottledError } from '../auth';
import type { Language } from '../../types/settings';
import { startCookieSession } from './auth';
import { clientAddress } from './client-address';
import { formText } from './guards';

export interface Credentials {
	name: string;
	password: string;
}

/**
 * Runs `attempt` with the posted name and password. On success the user gets a cookie session and is
 * sent to `to`. A refusal that `refuse` turns into the form's failure comes back as it (with
 * Retry-After when sign-ins are throttled); any other error is thrown. Refusals are in the reader's
 * language, like the rest of the page.
 */
export async function credentialsAction<Failure extends ActionFailure<Record<string, unknown>>>(
	event: RequestEvent,
	attempt: (app: Kantera, credentials: Credentials, request: { address: string | null; language: Language }) => Promise<{ id: string }>,
	refuse: (err: unknown, name: string, language: Language) => Failure | undefined,
	to: string
): Promise<Failure> {
	const language = event.locals.language ?? 'en';
	const data = await event.request.formData();
	const credentials = { name: formText(data, 'name'), password: formText(data, 'password') };
	const app = await getApp();
	let userId: string;
	try {
		userId = (await attempt(app, credentials, { address: clientAddress(event), language })).id;
	} catch (err) {
		const failure = refuse(err, credentials.name, language);
		if (!failure) throw err;
		if (err instanceof SignInThrottledError) event.setHeaders({ 'retry-after': String(err.retryAfterSeconds) });
		return failure;
	}
	await startCookieSession(app, event.cookies, event.url, userId);
	redirect(303, to);
}

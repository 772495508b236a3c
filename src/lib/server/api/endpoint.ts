/**
 * The frame of every JSON endpoint: who is asking (401 otherwise), the app, and the error mapping.
 * A handler only does its one job and returns a Response.
 *
 * The wrapped handler takes the few fields of SvelteKit's RequestEvent it needs, so it still
 * `satisfies RequestHandler` while tests can call it in-process with a plain object.
 */
import { error } from '@sveltejs/kit';
import type { AuthUser } from '../auth';
import { getApp, type App as Kantera } from '../app';
import { toErrorResponse } from './error-map';
import type { Language } from '../../types/settings';

type Params = Partial<Record<string, string>>;

export interface ApiEvent<P extends Params> {
	request: Request;
	url: URL;
	params: P;
	locals: App.Locals;
}

export interface ApiContext<P extends Params> {
	app: Kantera;
	user: AuthUser;
	request: Request;
	url: URL;
	params: P;
	/** The reader's UI language (cookie, else Accept-Language; English without the hooks): for the few words an answer carries. */
	language: Language;
}

/**
 * For JSON endpoints: 401 with a message instead of the pages' redirect to sign-in. Here rather than with
 * the pages' guards in hooks/: the hooks answer API requests with this folder's responses, so it does not
 * import them back.
 */
export function requireApiUser(locals: App.Locals): AuthUser {
	if (locals.user) return locals.user;
	error(401, { message: 'Sign in, or send "Authorization: Bearer <token>" with a personal API token.', code: 'UNAUTHENTICATED' });
}

export function apiEndpoint<P extends Params>(
	handler: (ctx: ApiContext<P>) => Promise<Response>
): (event: ApiEvent<P>) => Promise<Response> {
	return async (event) => {
		try {
			const user = requireApiUser(event.locals);
			const app = await getApp();
			return await handler({
				app,
				user,
				request: event.request,
				url: event.url,
				params: event.params,
				language: event.locals.language ?? 'en'
			});
		} catch (err) {
			const response = toErrorResponse(err);
			if (response) return response;
			throw err;
		}
	};
}

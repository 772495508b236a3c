/**
 * The frame of every JSON endpoint: who is asking (401 otherwise), the app, and the error mapping.
 * A handler only does its one job and returns a Response.
 *
 * The wrapped handler takes the few fields of SvelteKit's RequestEvent it needs, so it still
 * `satisfies RequestHandler` while tests can call it in-process with a plain object.
 */
import type { AuthUser } from '../auth';
import { requireApiUser } from '../hooks';
import { getApp, type App as Kantera } from '../app';
import { toErrorResponse } from './error-map';

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
}

export function apiEndpoint<P extends Params>(
	handler: (ctx: ApiContext<P>) => Promise<Response>
): (event: ApiEvent<P>) => Promise<Response> {
	return async (event) => {
		try {
			const user = requireApiUser(event.locals);
			const app = await getApp();
			return await handler({ app, user, request: event.request, url: event.url, params: event.params });
		} catch (err) {
			const response = toErrorResponse(err);
			if (response) return response;
			throw err;
		}
	};
}

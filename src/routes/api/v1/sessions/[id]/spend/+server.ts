import { apiEndpoint, jsonResponse, withSession } from '$lib/server/api';
import { sessionSpend } from '$lib/server/usage';
import type { RequestHandler } from './$types';

/** This session's tokens and cost per turn, the cache hit rate, the budget left per scope and the turns left today. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse(await withSession(app, user, params.id, (s) => sessionSpend(app, s, user), 'member'));
}) satisfies RequestHandler;

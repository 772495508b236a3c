import { apiEndpoint, dropMember } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The owner removes a player, or a player leaves: 204, and every route answers them 404 from now on. */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await dropMember(app, user, params.id, params.userId);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

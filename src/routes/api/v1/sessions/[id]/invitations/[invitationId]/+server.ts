import { apiEndpoint, uninvite } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The owner revokes an invitation: 204; nobody joins with it any more (those seated stay). */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await uninvite(app, user, params.id, params.invitationId);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

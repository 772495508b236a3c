import { apiEndpoint, sessionFor } from '$lib/server/api';
import type { RequestHandler } from './$types';

/**
 * The member is typing a line (issue 25): the session's open streams in this process show it for a few seconds
 * (TYPING_TTL_MS) as a `presence` frame. 204; nothing is stored.
 */
export const POST = apiEndpoint(async ({ app, user, params }) => {
	const { session } = await sessionFor(app, user, params.id, 'member');
	app.feeds.typed(session.id, user.id);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

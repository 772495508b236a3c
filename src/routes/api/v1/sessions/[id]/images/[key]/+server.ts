import { apiEndpoint, notFound, sessionFor } from '$lib/server/api';
import { isImageKey, storedImageResponse } from '$lib/server/images';
import type { RequestHandler } from './$types';

/**
 * A generated image (sprite or background) of a session the user sits at. Keys are content addressed,
 * so the answer is cached for good, privately. Another user's session, a malformed key or an
 * unknown one: 404, all alike.
 */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const { session } = await sessionFor(app, user, params.id, 'member');
	if (!isImageKey(params.key)) throw notFound('No such image.');
	const response = await storedImageResponse(app.images.store, session.id, params.key);
	if (!response) throw notFound('No such image.');
	return response;
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, withSession } from '$lib/server/api';
import { stageImages } from '$lib/server/play';
import type { RequestHandler } from './$types';

/** Every registered character and place with its image URL (null while a placeholder shows) and status. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse(await withSession(app, user, params.id, (s) => stageImages(s.db, s.id), 'member'));
}) satisfies RequestHandler;

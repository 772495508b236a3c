import { apiEndpoint, jsonResponse, postLoad } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** Loads a save as a new session (a branch; this one stays as it is): 201 `{sessionId, title}`. */
export const POST = apiEndpoint(async ({ app, user, params }) => {
	const loaded = await postLoad(app, user, params.id, params.saveId);
	return jsonResponse(loaded, 201, { location: `/api/v1/sessions/${loaded.sessionId}` });
}) satisfies RequestHandler;

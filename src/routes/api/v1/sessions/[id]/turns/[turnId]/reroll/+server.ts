import { apiEndpoint, jsonResponse, postReroll, readJson, RerollBody } from '$lib/server/api';
import type { RequestHandler } from './$types';

/**
 * Takes the last turn back and sends its line again (or `text`, an edit): 202 with the new turn and
 * what was undone, like a new turn; the same idempotencyKey again answers 200 with the same turn.
 */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, RerollBody);
	const rerolled = await postReroll(app, user, params, body);
	return jsonResponse(rerolled.body, rerolled.created ? 202 : 200, {
		location: `/api/v1/sessions/${params.id}/turns/${rerolled.body.turnId}`
	});
}) satisfies RequestHandler;

import { apiEndpoint, getAlternatives, jsonResponse, postAlternative, readJson, UndoBody } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The replies to the turn's line (swipes), oldest first, the one on screen marked `current`. */
export const GET = apiEndpoint(async ({ app, user, params }) =>
	jsonResponse(await getAlternatives(app, user, params))
) satisfies RequestHandler;

/**
 * Another reply to the turn's line: 202 with the new turn, which streams as any turn; the reply on
 * screen is kept as an alternative. The same idempotencyKey again answers 200 with the same turn.
 */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, UndoBody);
	const made = await postAlternative(app, user, params, body);
	return jsonResponse(made.body, made.created ? 202 : 200, { location: `/api/v1/sessions/${params.id}/turns/${made.body.turnId}` });
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, postTurn, PostTurnBody, readJson, withSession } from '$lib/server/api';
import type { RequestHandler } from './$types';

/**
 * Plays a turn: 202 with the new turn at once (the GM works in the background; follow it on the
 * events stream or poll the turn). The same idempotencyKey again answers 200 with the same turn and
 * starts nothing new.
 */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, PostTurnBody);
	const posted = await withSession(app, user, params.id, (s, _session, access) => postTurn(app, user, s, body, access), 'member');
	return jsonResponse(posted.turn, posted.created ? 202 : 200, { location: `/api/v1/sessions/${params.id}/turns/${posted.turn.turnId}` });
}) satisfies RequestHandler;

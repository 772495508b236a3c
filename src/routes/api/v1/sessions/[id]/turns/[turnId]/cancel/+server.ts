import { apiEndpoint, cancelTurn, jsonResponse, turnDto, withSession } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** 202: an accepted turn is cancelled now, a running one as soon as its runner sees it. 409 once finished. */
export const POST = apiEndpoint(async ({ app, user, params, language }) => {
	const turn = await withSession(app, user, params.id, (s) => cancelTurn(app, s, params.turnId));
	return jsonResponse(turnDto(turn, { id: user.id, language }), 202);
}) satisfies RequestHandler;

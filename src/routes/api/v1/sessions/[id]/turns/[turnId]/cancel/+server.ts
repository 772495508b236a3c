import { apiEndpoint, cancelTurn, jsonResponse, turnDto, withSession } from '$lib/server/api';
import type { RequestHandler } from './$types';

/**
 * 202: an accepted turn is cancelled now, a running one as soon as its runner sees it. 409 once finished.
 * The owner's; a player may cancel only their own line while it waits, queued (403 otherwise).
 */
export const POST = apiEndpoint(async ({ app, user, params, language }) => {
	const turn = await withSession(
		app,
		user,
		params.id,
		(s, _session, access) => cancelTurn(app, s, params.turnId, { role: access.role, userId: user.id }),
		'member'
	);
	return jsonResponse(turnDto(turn, { id: user.id, language }), 202);
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, readPlayerTurn, turnDto, withSession } from '$lib/server/api';
import type { RequestHandler } from './$types';

export const GET = apiEndpoint(async ({ app, user, params, language }) => {
	const turn = await withSession(app, user, params.id, (s) => readPlayerTurn(app, s, params.turnId), 'member');
	return jsonResponse(turnDto(turn, { id: user.id, language }));
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, PassBody, passTurn, readJson } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** In `round` mode: the seat whose turn it is passes (or the owner skips it with `{ seat }`); 200 with the table after it. */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, PassBody);
	return jsonResponse(await passTurn(app, user, params.id, body));
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, postUndo, readJson, UndoBody } from '$lib/server/api';
import type { RequestHandler } from './$types';

/**
 * Takes the last turn back with every record it wrote: 200 `{turnId, input, undone}`. The same
 * idempotencyKey again answers the same. 409 while a turn is in progress, for a turn that is not the
 * last one, or one already undone.
 */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, UndoBody);
	const undone = await postUndo(app, user, params, body);
	return jsonResponse(undone.body);
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, withSession } from '$lib/server/api';
import { state } from '$lib/server/records';
import type { StateDto } from '$lib/types/api';
import type { RequestHandler } from './$types';

/** The state record (location, time, HP, inventory, flags) and its version. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const snapshot = await withSession(app, user, params.id, (s) => state.get(s.db), 'member');
	const body: StateDto = { state: snapshot.doc, version: snapshot.version };
	return jsonResponse(body);
}) satisfies RequestHandler;

import { apiEndpoint, withSession } from '$lib/server/api';
import { deleteSave } from '$lib/server/timetravel';
import type { RequestHandler } from './$types';

/** Deletes a save slot (and the copy of the records it held): 204. */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await withSession(app, user, params.id, (s) => deleteSave(app, s, params.saveId));
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

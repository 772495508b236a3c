import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { listVersions } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The versions kept of your preset, newest first: `{ versions: [{ version, createdAt, note, savedBy, current }] }`. Not yours: 404. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse({ versions: await listVersions(app, user, params.id) });
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { restoreVersion } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** Saves this old version as the newest one (the versions after it stay in the history). Not yours: 404. */
export const POST = apiEndpoint(async ({ app, user, params }) => {
	const row = await restoreVersion(app, user, params.id, params.version);
	return jsonResponse({ id: row.id, version: row.currentVersion, visibility: row.visibility });
}) satisfies RequestHandler;

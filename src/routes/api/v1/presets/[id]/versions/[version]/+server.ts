import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { viewVersion } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/**
 * One version of your preset, read-only: `{ info, content, previous, changes }`, `changes` being
 * what changed from `previous` (the version kept before it; null for the first kept). Not yours: 404.
 */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse(await viewVersion(app, user, params.id, params.version));
}) satisfies RequestHandler;

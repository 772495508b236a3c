import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { remixPreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/**
 * Copies a world whose author allows remixes into a new private draft of yours, which keeps the
 * original's title, author and id (`remixOf`) → 201 `{ id }`. Not allowed or taken down: 403; not visible to you: 404.
 */
export const POST = apiEndpoint(async ({ app, user, params }) => {
	const row = await remixPreset(app, user, params.id);
	return jsonResponse({ id: row.id, version: row.currentVersion, visibility: row.visibility }, 201);
}) satisfies RequestHandler;

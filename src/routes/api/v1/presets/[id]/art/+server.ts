import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { listArt } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The author's art of a preset: NPC sprites per expression, place backgrounds and the cover. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse({ items: await listArt(app, user, params.id) });
}) satisfies RequestHandler;

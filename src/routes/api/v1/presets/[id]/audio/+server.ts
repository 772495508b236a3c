import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { listAudio } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The author's sound of a preset: music tracks, ambience loops and sound effects. Author only. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	return jsonResponse({ items: await listAudio(app, user, params.id) });
}) satisfies RequestHandler;

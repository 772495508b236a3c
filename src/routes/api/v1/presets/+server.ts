import { apiEndpoint, jsonResponse, readJson, PresetBody } from '$lib/server/api';
import { createFromInput, listMine } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The signed-in user's own presets (drafts included), most recently changed first. */
export const GET = apiEndpoint(async ({ app, user }) => jsonResponse({ presets: await listMine(app, user) })) satisfies RequestHandler;

/** Creates a private preset from its fields (without id); 400 INVALID_PRESET lists every problem. */
export const POST = apiEndpoint(async ({ app, user, request }) => {
	const body = await readJson(request, PresetBody);
	const row = await createFromInput(app, user, body);
	return jsonResponse({ id: row.id, version: row.currentVersion, visibility: row.visibility }, 201, {
		location: `/api/v1/presets/${row.id}`
	});
}) satisfies RequestHandler;

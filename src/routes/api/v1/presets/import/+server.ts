import { apiEndpoint, jsonResponse, readImportFile } from '$lib/server/api';
import { importPreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** Imports a preset file, a Character Card V2/V3 (JSON) or a card PNG as a new private draft preset. */
export const POST = apiEndpoint(async ({ app, user, request }) => {
	const bytes = await readImportFile(request);
	const row = await importPreset(app, user, bytes);
	return jsonResponse({ id: row.id, draft: true, title: row.title, language: row.language }, 201, {
		location: `/api/v1/presets/${row.id}`
	});
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, readImportFile } from '$lib/server/api';
import { importPreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/**
 * Imports a preset file, a Character Card V1/V2/V3 (JSON, PNG or CHARX) or a lorebook (World Info,
 * `lorebook_v3`) as a new private draft preset, with the report of where each field went.
 */
export const POST = apiEndpoint(async ({ app, user, request }) => {
	const file = await readImportFile(request);
	const { row, report } = await importPreset(app, user, file.bytes, file.name);
	return jsonResponse({ id: row.id, draft: true, title: row.title, language: row.language, report }, 201, {
		location: `/api/v1/presets/${row.id}`
	});
}) satisfies RequestHandler;

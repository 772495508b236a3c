import { apiEndpoint, jsonResponse, readImportFile } from '$lib/server/api';
import { mergeLorebookFile } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** Merges a lorebook (World Info, `lorebook_v3`, or a card's `character_book`) into the preset's draft, with the report. */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const file = await readImportFile(request);
	const { row, report } = await mergeLorebookFile(app, user, params.id, file.bytes);
	return jsonResponse({ id: row.id, draft: true, report });
}) satisfies RequestHandler;

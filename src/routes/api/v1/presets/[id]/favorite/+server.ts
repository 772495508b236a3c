import { apiEndpoint, jsonResponse } from '$lib/server/api';
import { favorite, getPresetRow } from '$lib/server/presets';
import type { App } from '$lib/server/app';
import type { RequestHandler } from './$types';

async function answer(app: App, id: string, favorited: boolean): Promise<Response> {
	const row = await getPresetRow(app.control.db, id);
	return jsonResponse({ id, favorited, favorites: row?.favorites ?? 0 });
}

/** Adds the preset to your favourites (idempotent). */
export const PUT = apiEndpoint(async ({ app, user, params }) => {
	const row = await favorite(app, user, params.id, true);
	return answer(app, row.id, true);
}) satisfies RequestHandler;

/** Removes it (idempotent). */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	const row = await favorite(app, user, params.id, false);
	return answer(app, row.id, false);
}) satisfies RequestHandler;

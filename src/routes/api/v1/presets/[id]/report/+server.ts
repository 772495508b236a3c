import { apiEndpoint, jsonResponse, readJson, ReportBody } from '$lib/server/api';
import { reportPreset, visiblePreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** Reports a preset you can see to the administrators (`{reason}`); reporting again updates the reason. */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, ReportBody);
	const row = await visiblePreset(app.control.db, params.id, user);
	await reportPreset(app.control.db, row, user, body.reason);
	return jsonResponse({ reported: true }, 201);
}) satisfies RequestHandler;

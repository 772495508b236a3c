import { apiEndpoint, jsonResponse, readJson, withSession } from '$lib/server/api';
import { listSaves, saveGame, SaveBody } from '$lib/server/timetravel';
import type { RequestHandler } from './$types';

/** The session's save slots, newest first. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const saves = await withSession(app, user, params.id, (s) => listSaves(s));
	return jsonResponse({ saves });
}) satisfies RequestHandler;

/** Saves the campaign as it stands: `{name?, quick?}` → 201 with the slot. 409 while a turn runs or when every slot is taken. */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, SaveBody);
	const save = await withSession(app, user, params.id, (s, session) => saveGame(app, s, body, session.language));
	return jsonResponse(save, 201);
}) satisfies RequestHandler;

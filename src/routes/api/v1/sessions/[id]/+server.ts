import {
	apiEndpoint,
	deleteSession,
	jsonResponse,
	PatchSessionBody,
	readJson,
	sessionDto,
	updateSession,
	withSession
} from '$lib/server/api';
import type { RequestHandler } from './$types';

export const GET = apiEndpoint(async ({ app, user, params }) => {
	const session = await withSession(app, user, params.id, (s, found, access) => sessionDto(app, found, s, user, access), 'member');
	return jsonResponse(session);
}) satisfies RequestHandler;

/** Title, provider, model, turn order (the language is pinned; see updateSession). The owner's. */
export const PATCH = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, PatchSessionBody);
	return jsonResponse(await updateSession(app, user, params.id, body));
}) satisfies RequestHandler;

/** Deletes the session and all its records. 204. */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await deleteSession(app, user, params.id);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

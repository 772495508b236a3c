import { apiEndpoint, CreateInvitationBody, inviteTo, jsonResponse, readJson } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The owner makes an invitation link: 201 with the token, once (only its digest is kept), and the page to open. */
export const POST = apiEndpoint(async ({ app, user, params, request, url }) => {
	const body = await readJson(request, CreateInvitationBody);
	return jsonResponse(await inviteTo(app, user, params.id, body, url.origin), 201);
}) satisfies RequestHandler;

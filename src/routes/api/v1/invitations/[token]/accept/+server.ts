import { AcceptInvitationBody, acceptInvite, apiEndpoint, jsonResponse, readJson } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** Takes a seat with an invitation: 200 with the session and the seat; 410 expired, revoked or used up; 409 full. */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, AcceptInvitationBody);
	return jsonResponse(await acceptInvite(app, user, params.token, body));
}) satisfies RequestHandler;

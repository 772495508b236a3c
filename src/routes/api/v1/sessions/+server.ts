import { apiEndpoint, createSession, CreateSessionBody, jsonResponse, readJson, sessionSummaryDto } from '$lib/server/api';
import { listMemberSessions } from '$lib/server/sessions';
import type { RequestHandler } from './$types';

/** The sessions the signed-in user owns or sits at, with their role, most recently updated first. */
export const GET = apiEndpoint(async ({ app, user }) => {
	const sessions = await listMemberSessions(app, user.id);
	return jsonResponse({ sessions: sessions.map((s) => ({ ...sessionSummaryDto(s), role: s.role })) });
}) satisfies RequestHandler;

/** Starts a session: its database, pinned mission and settings. 201 with the session. */
export const POST = apiEndpoint(async ({ app, user, request }) => {
	const body = await readJson(request, CreateSessionBody);
	const session = await createSession(app, user, body);
	return jsonResponse(session, 201, { location: `/api/v1/sessions/${session.id}` });
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, parseWith, queryOf, withSession, MessagesQuery } from '$lib/server/api';
import { messagesPage } from '$lib/server/play';
import type { RequestHandler } from './$types';

/**
 * The play log, oldest first. Without a cursor: the latest page. `?before=<id>` pages back;
 * `?after=<id>` catches up from a message the client already has.
 */
export const GET = apiEndpoint(async ({ app, user, params, url, language }) => {
	const q = parseWith(MessagesQuery, queryOf(url), 'INVALID_QUERY');
	return jsonResponse(await withSession(app, user, params.id, (s) => messagesPage(s.db, q, { id: user.id, language }), 'member'));
}) satisfies RequestHandler;

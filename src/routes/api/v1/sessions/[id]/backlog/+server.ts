import { apiEndpoint, jsonResponse, parseWith, queryOf, withSession, BacklogQuery } from '$lib/server/api';
import { logPage } from '$lib/server/play';
import type { RequestHandler } from './$types';

/**
 * The play log with its stage, oldest first: each message's stage cues, the stage as the page
 * begins, and the registered characters' and places' images — everything needed to show any past
 * paragraph with the background and sprites it had. Paging as GET …/messages (`?before=`, `?after=`).
 * The backlog pages back through it; the play page reads what a commit added with `?after=`.
 */
export const GET = apiEndpoint(async ({ app, user, params, url, language }) => {
	const q = parseWith(BacklogQuery, queryOf(url), 'INVALID_QUERY');
	return jsonResponse(await withSession(app, user, params.id, (s) => logPage(s.db, s.id, q, { id: user.id, language }), 'member'));
}) satisfies RequestHandler;

import { apiEndpoint, jsonResponse, parseWith, queryOf, withSession, JournalRecentQuery, journalRecent } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The latest journal entries (oldest first within the page); `?before=<nextBefore>` loads older ones. */
export const GET = apiEndpoint(async ({ app, user, params, url }) => {
	const q = parseWith(JournalRecentQuery, queryOf(url), 'INVALID_QUERY');
	return jsonResponse(await withSession(app, user, params.id, (s) => journalRecent(s.db, q), 'member'));
}) satisfies RequestHandler;

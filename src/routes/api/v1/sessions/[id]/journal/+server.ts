import * as v from 'valibot';
import { apiEndpoint, IdString, journalEntryDto, jsonResponse, limitParam, parseWith, queryOf, withSession } from '$lib/server/api';
import { journal } from '$lib/server/records';
import type { RequestHandler } from './$types';

const JOURNAL_MAX_PAGE = 500;
const JOURNAL_DEFAULT_PAGE = 100;

const Query = v.object({ after: v.optional(IdString), limit: limitParam(JOURNAL_MAX_PAGE, JOURNAL_DEFAULT_PAGE) });

/** Journal entries oldest first; `?after=<id>` continues from the last entry the client has. */
export const GET = apiEndpoint(async ({ app, user, params, url }) => {
	const q = parseWith(Query, queryOf(url), 'INVALID_QUERY');
	const rows = await withSession(app, user, params.id, (s) => journal.list(s.db, { afterId: q.after, limit: q.limit }), 'member');
	return jsonResponse({ entries: rows.map(journalEntryDto) });
}) satisfies RequestHandler;

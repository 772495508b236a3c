import * as v from 'valibot';
import { apiEndpoint, IdString, jsonResponse, limitParam, messageDto, parseWith, queryOf, withSession } from '$lib/server/api';
import { log } from '$lib/server/records';
import type { MessagesPageDto } from '$lib/types/api';
import type { RequestHandler } from './$types';

const MESSAGES_MAX_PAGE = 200;
const MESSAGES_DEFAULT_PAGE = 50;

const Query = v.object({ before: v.optional(IdString), after: v.optional(IdString), limit: limitParam(MESSAGES_MAX_PAGE, MESSAGES_DEFAULT_PAGE) });

/**
 * The play log, oldest first. Without a cursor: the latest page. `?before=<id>` pages back;
 * `?after=<id>` catches up from a message the client already has.
 */
export const GET = apiEndpoint(async ({ app, user, params, url }) => {
	const q = parseWith(Query, queryOf(url), 'INVALID_QUERY');
	const rows = await withSession(app, user, params.id, (s) => log.list(s.db, { beforeId: q.before, afterId: q.after, limit: q.limit }));
	const first = rows[0];
	const body: MessagesPageDto = {
		messages: rows.map(messageDto),
		// A full page going backwards may have more before it.
		...(first && rows.length === q.limit && q.after === undefined ? { nextBefore: first.id } : {})
	};
	return jsonResponse(body);
}) satisfies RequestHandler;

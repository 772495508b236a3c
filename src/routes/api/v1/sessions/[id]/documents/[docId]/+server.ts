import * as v from 'valibot';
import {
	apiEndpoint,
	documentDto,
	IdString,
	jsonResponse,
	notFound,
	readJson,
	withSession,
	DocumentEditBody,
	documentIdParam,
	editDocument
} from '$lib/server/api';
import { documents, isRecordError } from '$lib/server/records';
import type { RequestHandler } from './$types';

const NO_SUCH_DOCUMENT = 'No such document in this session.';

/** One player-visible document with its body. A GM-only document answers exactly like a missing one. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const id = v.safeParse(IdString, params.docId);
	if (!id.success) throw notFound(NO_SUCH_DOCUMENT);
	const doc = await withSession(
		app,
		user,
		params.id,
		async (s) => {
			try {
				return await documents.get(s.db, id.output);
			} catch (err) {
				if (isRecordError(err, 'not_found')) throw notFound(NO_SUCH_DOCUMENT);
				throw err;
			}
		},
		'member'
	);
	if (doc.gmOnly) throw notFound(NO_SUCH_DOCUMENT);
	return jsonResponse(documentDto(doc));
}) satisfies RequestHandler;

/**
 * The player edits a player-visible document (`{title?, body}`); GM-only or unknown: 404. Allowed
 * while a turn runs (see editDocument). The new text is searchable at once and embedded before the
 * next turn.
 */
export const PUT = apiEndpoint(async ({ app, user, params, request }) => {
	const id = documentIdParam(params.docId);
	const edit = await readJson(request, DocumentEditBody);
	const doc = await withSession(app, user, params.id, (s) => editDocument(s, id, edit));
	return jsonResponse(documentDto(doc));
}) satisfies RequestHandler;

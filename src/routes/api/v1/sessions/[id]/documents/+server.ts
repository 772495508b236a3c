import { apiEndpoint, documentInfoDto, jsonResponse, withSession } from '$lib/server/api';
import { documents } from '$lib/server/records';
import type { RequestHandler } from './$types';

/** The documents the player may see (world setting, premise, PC sheet); GM-only ones are not listed at all. */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const rows = await withSession(app, user, params.id, (s) => documents.list(s.db, { includeGmOnly: false }));
	return jsonResponse({ documents: rows.map(documentInfoDto) });
}) satisfies RequestHandler;

import { apiEndpoint, documentInfoDto, jsonResponse, withSession } from '$lib/server/api';
import { documents } from '$lib/server/records';
import type { RequestHandler } from './$types';

/**
 * The documents the player may see (world setting, premise, PC sheet). In another author's world they
 * are listed by name only (`sealed: true`; their bodies answer 404); other GM-only ones are not listed.
 */
export const GET = apiEndpoint(async ({ app, user, params }) => {
	const rows = await withSession(
		app,
		user,
		params.id,
		(s) => documents.list(s.db, { includeGmOnly: false, includeVisibleTitles: true }),
		'member'
	);
	return jsonResponse({ documents: rows.map(documentInfoDto) });
}) satisfies RequestHandler;

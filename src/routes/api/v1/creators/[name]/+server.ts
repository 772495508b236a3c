import * as v from 'valibot';
import { apiEndpoint, jsonResponse, notFound, parseWith, queryOf } from '$lib/server/api';
import { creatorPage } from '$lib/server/gallery';
import { matureShownTo } from '$lib/server/presets';
import { pickLanguage } from '$lib/i18n/all-languages';
import type { RequestHandler } from './$types';

const CreatorQuery = v.object({
	cursor: v.optional(v.pipe(v.string('cursor must be text'), v.maxLength(300, 'cursor is not one this server gave out')), ''),
	limit: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^\d{1,2}$/, 'limit must be a whole number from 1 to 60'),
			v.transform(Number),
			v.minValue(1),
			v.maxValue(60)
		),
		'24'
	)
});

/** A creator's public worlds, newest first: `{ name, items, nextCursor }` (items as the gallery's). No such account: 404. */
export const GET = apiEndpoint(async ({ app, user, params, url, request }) => {
	const query = parseWith(CreatorQuery, queryOf(url), 'INVALID_QUERY');
	const mature = await matureShownTo(app.control.db, app.config, user.id);
	const displayLanguage = pickLanguage(undefined, request.headers.get('accept-language'));
	const found = await creatorPage(app.control.db, params.name, { ...query, mature, viewerId: user.id, displayLanguage });
	if (!found) throw notFound('There is no creator by that name.');
	return jsonResponse({ name: found.name, ...found.page });
}) satisfies RequestHandler;

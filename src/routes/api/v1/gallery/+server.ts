import { apiEndpoint, jsonResponse, parseWith, queryOf } from '$lib/server/api';
import { galleryPage, GalleryQuerySchema } from '$lib/server/gallery';
import { matureShownTo } from '$lib/server/presets';
import { pickLanguage } from '$lib/i18n/all-languages';
import type { RequestHandler } from './$types';

/**
 * A page of a shelf: `?shelf=new|popular|favorites&language=ja|en&q=words&tag=…&rating=general|mature&cursor=…&limit=1…60`.
 * Worlds rated mature are listed only for a user who opted in, and for no one when the operator turned them off.
 * Official presets lead the first page of New and Popular, in the `language` asked for, else in the
 * first of the client's Accept-Language they exist in.
 */
export const GET = apiEndpoint(async ({ app, user, url, request }) => {
	const query = parseWith(GalleryQuerySchema, queryOf(url), 'INVALID_QUERY');
	const displayLanguage = pickLanguage(undefined, request.headers.get('accept-language'));
	app.covers.resume();
	const mature = await matureShownTo(app.control.db, app.config, user.id);
	return jsonResponse(await galleryPage(app.control.db, { ...query, viewerId: user.id, mature, displayLanguage }));
}) satisfies RequestHandler;

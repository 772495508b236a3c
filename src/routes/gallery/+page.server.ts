import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { galleryPage, GalleryError, GalleryQuerySchema, type GalleryQuery } from '$lib/server/gallery';
import { queryOf } from '$lib/server/api';
import { matureShownTo } from '$lib/server/presets';
import { translate } from '$lib/i18n/all-languages';
import type { PageServerLoad } from './$types';

const DEFAULT_QUERY: GalleryQuery = { shelf: 'new', language: '', q: '', tag: '', rating: '', cursor: '', limit: 24 };

/** The gallery works signed out (Favourites then asks to sign in) and entirely without JavaScript: every control is a link or a GET form. */
export const load: PageServerLoad = async ({ url, locals }) => {
	const language = locals.language ?? 'en';
	// What was wrong with the address is said in the reader's language (the API says it in English).
	const parsed = v.safeParse(GalleryQuerySchema, queryOf(url), { lang: language });
	const query = parsed.success ? parsed.output : DEFAULT_QUERY;
	const problem = parsed.success ? null : parsed.issues[0].message;
	const app = await getApp();
	// Covers ordered before this process started are drawn from the first page that shows them.
	app.covers.resume();
	const mature = await matureShownTo(app.control.db, app.config, locals.user?.id);
	try {
		const page = await galleryPage(app.control.db, { ...query, viewerId: locals.user?.id, mature, displayLanguage: language });
		return { query, page, invalid: !parsed.success, problem, signedIn: locals.user !== null, mature };
	} catch (err) {
		// A stale or edited cursor: show the shelf from its start, and say so.
		if (err instanceof GalleryError) {
			const page = await galleryPage(app.control.db, {
				...query,
				cursor: '',
				viewerId: locals.user?.id,
				mature,
				displayLanguage: language
			});
			const stale = translate(language, 'gallery.error.cursor');
			return { query: { ...query, cursor: '' }, page, invalid: true, problem: stale, signedIn: locals.user !== null, mature };
		}
		throw err;
	}
};

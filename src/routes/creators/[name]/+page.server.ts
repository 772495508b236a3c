import { error } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { creatorPage, GalleryError } from '$lib/server/gallery';
import { matureShownTo } from '$lib/server/presets';
import type { PageServerLoad } from './$types';

const Cursor = v.optional(v.pipe(v.string(), v.maxLength(300)), '');

/** A creator's public worlds, newest first, a page at a time; no such account: 404. Works signed out and without JavaScript. */
export const load: PageServerLoad = async ({ params, url, locals }) => {
	const app = await getApp();
	app.covers.resume();
	const cursor = v.safeParse(Cursor, url.searchParams.get('cursor') ?? undefined);
	const mature = await matureShownTo(app.control.db, app.config, locals.user?.id);
	const ask = (c: string) =>
		creatorPage(app.control.db, params.name, {
			cursor: c,
			limit: 24,
			mature,
			viewerId: locals.user?.id,
			displayLanguage: locals.language ?? 'en'
		});
	let found;
	try {
		found = await ask(cursor.success ? cursor.output : '');
	} catch (err) {
		// A stale or edited cursor: the first page.
		if (!(err instanceof GalleryError)) throw err;
		found = await ask('');
	}
	if (!found) error(404, { message: 'There is no creator by that name.', code: 'NOT_FOUND' });
	return { creator: found.name, page: found.page, cursor: cursor.success ? cursor.output : '' };
};

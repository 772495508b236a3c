import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { imageResponse, isImageKey } from '$lib/server/images';
import { presetPageError, visiblePreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** A preset's cover image, to whoever may see the preset. Keys are content addressed: cached for good. */
export const GET: RequestHandler = async ({ params, locals }) => {
	const app = await getApp();
	try {
		const row = await visiblePreset(app.control.db, params.id, locals.user);
		const job = await app.covers.get(row.id);
		if (!job || job.image !== params.key || !isImageKey(params.key)) error(404, { message: 'No such image.', code: 'NOT_FOUND' });
		const image = await app.images.store.get(job.slot, params.key);
		if (!image) error(404, { message: 'No such image.', code: 'NOT_FOUND' });
		return imageResponse(image);
	} catch (err) {
		presetPageError(err);
	}
};

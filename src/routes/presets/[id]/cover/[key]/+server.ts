import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { isImageKey, storedImageResponse } from '$lib/server/images';
import { presetPageError, visiblePreset } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** A preset's cover image, to whoever may see the preset. Keys are content addressed: cached for good. */
export const GET: RequestHandler = async ({ params, locals }) => {
	const app = await getApp();
	try {
		const row = await visiblePreset(app.control.db, params.id, locals.user);
		const job = await app.covers.get(row.id);
		if (!job || job.image !== params.key || !isImageKey(params.key)) error(404, { message: 'No such image.', code: 'NOT_FOUND' });
		const response = await storedImageResponse(app.images.store, job.slot, params.key);
		if (!response) error(404, { message: 'No such image.', code: 'NOT_FOUND' });
		return response;
	} catch (err) {
		presetPageError(err);
	}
};

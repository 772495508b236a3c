import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { storedImageResponse } from '$lib/server/images';
import { artImage, presetPageError } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** An image of a preset's art, to whoever may see the preset (sessions show it anyway). Content addressed: cached for good. */
export const GET: RequestHandler = async ({ params, locals }) => {
	const app = await getApp();
	try {
		const art = await artImage(app, locals.user, params.id, params.slot, params.key);
		const response = art && (await storedImageResponse(app.images.store, art.slot, art.image));
		if (!response) error(404, { message: 'No such image.', code: 'NOT_FOUND' });
		return response;
	} catch (err) {
		presetPageError(err);
	}
};

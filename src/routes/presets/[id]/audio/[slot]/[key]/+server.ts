import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { storedImageResponse } from '$lib/server/images';
import { audioFile, presetPageError } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** A sound file of a preset, to whoever may see the preset (its sessions play it). Content addressed: cached for good. */
export const GET: RequestHandler = async ({ params, locals }) => {
	const app = await getApp();
	try {
		const audio = await audioFile(app, locals.user, params.id, params.slot, params.key);
		const response = audio && (await storedImageResponse(app.images.store, audio.slot, audio.file));
		if (!response) error(404, { message: 'No such sound.', code: 'NOT_FOUND' });
		return response;
	} catch (err) {
		presetPageError(err);
	}
};

import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { editablePreset, exportFileName, exportPreset, presetPageError } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The author downloads the current version as a preset file (importable here or on another Kantera). */
export const GET: RequestHandler = async ({ params, locals, url }) => {
	const user = requireUser(locals, url);
	try {
		const { content } = await editablePreset(await getApp(), params.id, user);
		if (!content) error(409, { message: 'This preset is only a draft: save it before exporting it.', code: 'NOT_PLAYABLE' });
		const name = exportFileName(content);
		return new Response(JSON.stringify(exportPreset(content), null, 2), {
			headers: {
				'content-type': 'application/json; charset=utf-8',
				'content-disposition': `attachment; filename="preset.json"; filename*=UTF-8''${encodeURIComponent(name)}`,
				'cache-control': 'no-store'
			}
		});
	} catch (err) {
		presetPageError(err);
	}
};

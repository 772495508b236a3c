import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { errorPageMessage } from '$lib/i18n/error-page';
import { editablePreset, exportFileName, exportPreset, presetPageError } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The author downloads the current version as a preset file (importable here or on another Kantera). */
export const GET: RequestHandler = async ({ params, locals, url }) => {
	const user = requireUser(locals, url);
	try {
		const { content } = await editablePreset(await getApp(), params.id, user);
		if (!content) {
			// A download's refusal is SvelteKit's plain error page, which shows only the message: worded as the error page would.
			const refusal = { message: 'This preset is only a draft: save it before exporting it.', code: 'NOT_PLAYABLE' };
			error(409, { ...refusal, message: errorPageMessage(locals.language ?? 'en', 409, refusal) });
		}
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

import { error } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { errorPageMessage } from '$lib/i18n/error-page';
import { downloadResponse, exportPresetAs, ExportFormatSchema, isPresetError, presetPageError } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/**
 * The author downloads the current version: `?format=kantera` (the preset file, importable here or on
 * another Kantera; the default), `ccv3` (a Character Card V3 as JSON), `png` (a card PNG) or `charx`.
 */
export const GET: RequestHandler = async ({ params, locals, url }) => {
	const user = requireUser(locals, url);
	const language = locals.language ?? 'en';
	const format = v.safeParse(ExportFormatSchema, url.searchParams.get('format') ?? 'kantera');
	if (!format.success) error(400, { message: format.issues[0].message, code: 'INVALID_REQUEST' });
	try {
		return downloadResponse(await exportPresetAs(await getApp(), user, params.id, format.output));
	} catch (err) {
		if (isPresetError(err, 'not_playable')) {
			// A download's refusal is SvelteKit's plain error page, which shows only the message: worded as the error page would.
			const refusal = { message: 'This preset is only a draft: save it before exporting it.', code: 'NOT_PLAYABLE' };
			error(409, { ...refusal, message: errorPageMessage(language, 409, refusal) });
		}
		presetPageError(err);
	}
};

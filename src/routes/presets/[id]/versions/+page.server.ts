import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { KEPT_VERSIONS, listVersions, presetPageError, presetView } from '$lib/server/presets';
import type { PageServerLoad } from './$types';

/** The author's list of their preset's versions; anyone else: 404, as for a draft. */
export const load: PageServerLoad = async ({ locals, url, params, setHeaders }) => {
	const user = requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	try {
		const app = await getApp();
		const versions = await listVersions(app, user, params.id);
		const preset = await presetView(app, params.id, user);
		return { preset: { id: preset.id, title: preset.title }, versions, kept: KEPT_VERSIONS };
	} catch (err) {
		presetPageError(err);
	}
};

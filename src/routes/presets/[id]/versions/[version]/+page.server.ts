import { redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { presetPageError, presetView, restoreVersion, viewVersion } from '$lib/server/presets';
import type { Actions, PageServerLoad } from './$types';

/** One version, read-only, and what changed from the one before it; the author's only (404 for anyone else). */
export const load: PageServerLoad = async ({ locals, url, params, setHeaders }) => {
	const user = requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	try {
		const app = await getApp();
		const view = await viewVersion(app, user, params.id, params.version);
		const preset = await presetView(app, params.id, user);
		const restored = url.searchParams.get('restored');
		return {
			preset: { id: preset.id, title: preset.title },
			view,
			restored: restored && /^\d{1,9}$/.test(restored) ? Number(restored) : null
		};
	} catch (err) {
		presetPageError(err);
	}
};

export const actions = {
	/** Saves this version as the newest one, then shows the new version. */
	restore: async ({ locals, url, params }) => {
		const user = requireUser(locals, url);
		let version: number | null;
		try {
			version = (await restoreVersion(await getApp(), user, params.id, params.version)).currentVersion;
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, `/presets/${params.id}/versions/${version ?? params.version}?restored=${params.version}`);
	}
} satisfies Actions;

import { error, fail } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { formText, requireUser } from '$lib/server/hooks';
import {
	dismissReports,
	isPresetError,
	isPresetId,
	moderatePreset,
	moderatedPresets,
	openReports,
	restorePreset
} from '$lib/server/presets';
import type { AuthUser } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

/** Administrators only; to anyone else the page does not exist. */
function requireAdmin(locals: App.Locals, url: URL): AuthUser {
	const user = requireUser(locals, url);
	if (!user.isAdmin) error(404, { message: 'There is nothing at this address.', code: 'NOT_FOUND' });
	return user;
}

const PresetIdField = v.pipe(
	v.string(),
	v.check((id: string) => isPresetId(id), 'not a preset id')
);

async function act(request: Request, locals: App.Locals, url: URL, fn: (id: string) => Promise<void>) {
	requireAdmin(locals, url);
	const id = v.safeParse(PresetIdField, formText(await request.formData(), 'presetId'));
	// Codes the page words in the reader's language.
	if (!id.success) return fail(400, { error: 'admin.reports.badId' as const });
	try {
		await fn(id.output);
	} catch (err) {
		if (isPresetError(err, 'not_found')) return fail(404, { error: 'admin.reports.notFound' as const });
		throw err;
	}
	return { done: id.output };
}

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	requireAdmin(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	const app = await getApp();
	return { reports: await openReports(app.control.db), moderated: await moderatedPresets(app.control.db) };
};

export const actions = {
	/** Takes the preset off the shelves (only its author can still open it) and resolves its reports. */
	unlist: async ({ request, locals, url }) => act(request, locals, url, async (id) => moderatePreset((await getApp()).control.db, id)),
	dismiss: async ({ request, locals, url }) => act(request, locals, url, async (id) => dismissReports((await getApp()).control.db, id)),
	restore: async ({ request, locals, url }) => act(request, locals, url, async (id) => restorePreset((await getApp()).control.db, id))
} satisfies Actions;

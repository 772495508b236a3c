import { redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { dropDraft, editablePreset, presetLimits, presetPageError, runEditor } from '$lib/server/presets';
import { emptyForm, formFromContent } from '$lib/presets/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, params, setHeaders }) => {
	const user = requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	try {
		const { row, content, draft } = await editablePreset(await getApp(), params.id, user);
		return {
			preset: { id: row.id, title: row.title, version: row.currentVersion },
			// Unsaved work first: the autosaved draft, else the current version.
			form: draft?.form ?? (content ? formFromContent(content) : emptyForm(locals.language ?? 'en')),
			draftUpdatedAt: draft ? new Date(draft.updatedAt).toISOString() : null,
			limits: presetLimits()
		};
	} catch (err) {
		presetPageError(err);
	}
};

export const actions = {
	/** Saves a new version (or adds/removes a row for the form without JavaScript). */
	save: async ({ request, locals, url, params }) =>
		runEditor(await getApp(), requireUser(locals, url), params.id, await request.formData()),
	/** Throws the autosaved draft away and shows the current version again. */
	discard: async ({ locals, url, params }) => {
		try {
			await dropDraft(await getApp(), requireUser(locals, url), params.id);
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, `/presets/${params.id}/edit`);
	}
} satisfies Actions;

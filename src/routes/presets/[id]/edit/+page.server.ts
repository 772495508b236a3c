import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import {
	deleteArt,
	dropDraft,
	editablePreset,
	isPresetError,
	listArt,
	presetErrorText,
	presetLimits,
	presetPageError,
	putArt,
	runEditor
} from '$lib/server/presets';
import { emptyForm, formFromContent } from '$lib/presets/form';
import { translate } from '$lib/i18n/all-languages';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, params, setHeaders }) => {
	const user = requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	try {
		const app = await getApp();
		const { row, content, draft } = await editablePreset(app, params.id, user);
		return {
			art: await listArt(app, user, row.id),
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
	},
	/** Uploads an image of the art (a sprite, a background, the cover): `kind`, `name`, `expression`, `file`. */
	art: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const data = await request.formData();
		const file = data.get('file');
		const target = artTarget(data);
		try {
			if (!(file instanceof File) || file.size === 0)
				return fail(400, { art: { error: translate(locals.language ?? 'en', 'editor.art.chooseFile'), target } });
			await putArt(await getApp(), user, params.id, target, new Uint8Array(await file.arrayBuffer()));
		} catch (err) {
			if (isPresetError(err) && (err.code === 'invalid' || err.code === 'bad_image'))
				return fail(400, { art: { error: presetErrorText(err, locals.language ?? 'en'), target } });
			presetPageError(err);
		}
		redirect(303, `/presets/${params.id}/edit#art`);
	},
	/** Removes an image of the art. */
	artRemove: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		try {
			await deleteArt(await getApp(), user, params.id, artTarget(await request.formData()));
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, `/presets/${params.id}/edit#art`);
	}
} satisfies Actions;

/** The target the form names, as it came: the art module checks it. */
function artTarget(data: FormData): Record<string, string> {
	const field = (name: string) => {
		const value = data.get(name);
		return typeof value === 'string' ? value : '';
	};
	return { kind: field('kind'), name: field('name'), expression: field('expression') };
}

import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { presetLimits, runEditor } from '$lib/server/presets';
import { emptyForm } from '$lib/presets/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	return { form: emptyForm(locals.language ?? 'en'), limits: presetLimits() };
};

export const actions = {
	/** Saves a new preset (private), or adds/removes a row for the form without JavaScript. */
	save: async ({ request, locals, url }) => runEditor(await getApp(), requireUser(locals, url), undefined, await request.formData())
} satisfies Actions;

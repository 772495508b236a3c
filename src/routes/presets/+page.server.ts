import { fail, redirect } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { ImportFileSchema, importPreset, isPresetError, listMine, presetErrorText } from '$lib/server/presets';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	const user = requireUser(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	return { presets: await listMine(await getApp(), user), deleted: url.searchParams.has('deleted') };
};

export const actions = {
	/** A preset file, a Character Card (JSON, PNG, CHARX) or a lorebook becomes a new private draft, opened in the editor with the import's report. */
	import: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		// Why a file is refused is said in the reader's language (the API says it in English).
		const language = locals.language ?? 'en';
		const file = v.safeParse(ImportFileSchema, (await request.formData()).get('file'), { lang: language });
		if (!file.success) return fail(400, { importError: file.issues[0].message });
		let id: string;
		try {
			id = (await importPreset(await getApp(), user, new Uint8Array(await file.output.arrayBuffer()), file.output.name)).row.id;
		} catch (err) {
			if (isPresetError(err, 'bad_import')) return fail(400, { importError: presetErrorText(err, language) });
			throw err;
		}
		redirect(303, `/presets/${id}/edit?imported=1`);
	}
} satisfies Actions;

import { fail, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { formText } from '$lib/server/hooks';
import { listWorlds, WORLD_IDS } from '$lib/server/worlds';
import {
	startSession,
	listPlaySessions,
	renamePlaySession,
	PlaySessionValidationError,
	PlaySessionNotFoundError,
	TitleSchema
} from '$lib/server/sessions';
import { LanguageSchema } from '$lib/types/settings';
import { playPreset } from '$lib/server/presets';
import * as v from 'valibot';
import { translate } from '$lib/i18n/all-languages';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	if (!locals.user) return { sessions: null, worlds: [] };
	const sessions = await listPlaySessions(await getApp(), locals.user.id);
	return {
		sessions: sessions.map((s) => ({ id: s.id, title: s.title, language: s.language, updatedAt: s.updatedAt.toISOString() })),
		// Shown in the reader's language; the session itself is seeded in the language chosen for it.
		worlds: listWorlds(locals.language ?? 'en'),
		defaultWorld: WORLD_IDS[0]
	};
};

export const actions = {
	create: async ({ request, locals }) => {
		if (!locals.user) redirect(303, '/signin');
		const data = await request.formData();
		const title = formText(data, 'title');
		const reader = locals.language ?? 'en';
		const language = formText(data, 'language') || reader;
		const world = formText(data, 'world');
		let id: string;
		try {
			const app = await getApp();
			// Field errors in the reader's language (the API words its own in English).
			const story = v.safeParse(LanguageSchema, language);
			if (!story.success) throw new PlaySessionValidationError({ language: translate(reader, 'home.error.language') });
			if (world === '')
				id = (await startSession(app, { ownerId: locals.user.id, title, language: story.output, readerLanguage: reader })).session.id;
			else {
				// An official world is a preset: started through the presets module, so the play is counted.
				const checked = v.safeParse(TitleSchema, title, { lang: reader });
				if (!checked.success) throw new PlaySessionValidationError({ title: checked.issues[0].message });
				if (!WORLD_IDS.some((worldId) => worldId === world))
					throw new PlaySessionValidationError({ world: translate(reader, 'home.error.world') });
				id = (await playPreset(app, locals.user, world, { title: checked.output, language: story.output })).session.id;
			}
		} catch (err) {
			if (err instanceof PlaySessionValidationError) return fail(400, { create: { title, language, world, errors: err.fields } });
			throw err;
		}
		// Straight into the new session: its title card and prologue are waiting.
		redirect(303, `/sessions/${id}`);
	},
	rename: async ({ request, locals }) => {
		if (!locals.user) redirect(303, '/signin');
		const data = await request.formData();
		const id = formText(data, 'id');
		const title = formText(data, 'title');
		try {
			await renamePlaySession(await getApp(), locals.user.id, id, title, Date.now(), locals.language);
		} catch (err) {
			if (err instanceof PlaySessionValidationError) return fail(400, { rename: { id, title, error: err.fields.title ?? err.message } });
			if (err instanceof PlaySessionNotFoundError)
				return fail(404, { rename: { id, title, error: translate(locals.language ?? 'en', 'home.error.noSession') } });
			throw err;
		}
		return { renamed: id };
	}
} satisfies Actions;

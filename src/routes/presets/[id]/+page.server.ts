import { fail, redirect } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { formText, requireUser } from '$lib/server/hooks';
import {
	changeVisibility,
	deletePreset,
	favorite,
	isAuthor,
	isPresetError,
	playPreset,
	presetPageError,
	presetView,
	previewAsPlayer,
	remixPreset,
	reportPreset,
	appealTakedown,
	AppealSchema,
	currentTakedown,
	ReportReasonSchema,
	visiblePreset,
	type Visibility
} from '$lib/server/presets';
import { PresetVisibilitySchema } from '$lib/types/presets';
import { TitleSchema } from '$lib/server/sessions';
import { LanguageSchema } from '$lib/types/settings';
import type { Actions, PageServerLoad } from './$types';

const LanguageChoice = v.optional(LanguageSchema);

export const load: PageServerLoad = async ({ locals, params, url, setHeaders }) => {
	const app = await getApp();
	const viewer = locals.user;
	const asked = v.safeParse(LanguageChoice, url.searchParams.get('language') ?? undefined);
	const language = (asked.success ? asked.output : undefined) ?? locals.language ?? 'en';
	// "Preview as a player": the author is shown the stranger's page, built by the same code as theirs.
	const preview = url.searchParams.get('preview') === 'player' && viewer !== null;
	try {
		const preset = preview ? await previewAsPlayer(app, viewer, params.id, language) : await presetView(app, params.id, viewer, language);
		const listed = preset.official || (preset.visibility === 'public' && !preset.moderated);
		// Only what is on the shelves may be indexed: an unlisted link stays out of search engines.
		if (!listed || preview) setHeaders({ 'x-robots-tag': 'noindex' });
		// Only the author is sent the whole preset (content and draft).
		const author = 'content' in preset;
		return {
			preview,
			preset,
			listed,
			isAuthor: author,
			sealed: !preset.official && !author,
			signedIn: viewer !== null,
			playLanguage: language,
			link: `${url.origin}/presets/${preset.id}`,
			// Why and when it was taken down, and the author's appeal: theirs to read only.
			takedown: author && preset.moderated ? await currentTakedown(app.control.db, preset.id) : null,
			saved: url.searchParams.has('saved')
		};
	} catch (err) {
		presetPageError(err);
	}
};

export const actions = {
	/** Starts a session from the preset and opens it. */
	play: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const data = await request.formData();
		const title = formText(data, 'title').trim();
		const checkedTitle = v.safeParse(v.optional(TitleSchema), title === '' ? undefined : title, { lang: locals.language });
		if (!checkedTitle.success) return fail(400, { play: { title, error: checkedTitle.issues[0].message } });
		const language = v.safeParse(LanguageChoice, formText(data, 'language') || undefined);
		let sessionId: string;
		try {
			const started = await playPreset(await getApp(), user, params.id, {
				title: checkedTitle.output,
				language: language.success ? language.output : undefined
			});
			sessionId = started.session.id;
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, `/sessions/${sessionId}`);
	},
	/** Copies the world into a new draft of the user's own (its author allows it), then opens the editor on it. */
	remix: async ({ locals, url, params }) => {
		const user = requireUser(locals, url);
		let id: string;
		try {
			id = (await remixPreset(await getApp(), user, params.id)).id;
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, `/presets/${id}/edit`);
	},
	/** Adds to or removes from the user's favourites (`on` = 1 or 0). */
	favorite: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const on = formText(await request.formData(), 'on') === '1';
		try {
			await favorite(await getApp(), user, params.id, on);
		} catch (err) {
			presetPageError(err);
		}
		return { favorited: on };
	},
	/** The author changes who can see it. */
	visibility: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const choice = v.safeParse(PresetVisibilitySchema, formText(await request.formData(), 'visibility'));
		if (!choice.success) return fail(400, { visibility: { code: 'invalid' as const, message: '' } });
		const visibility: Visibility = choice.output;
		try {
			await changeVisibility(await getApp(), user, params.id, visibility);
		} catch (err) {
			if (isPresetError(err, 'rate_limited'))
				return fail(429, { visibility: { code: 'rateLimited' as const, message: err.details.retryAt?.toISOString() ?? '' } });
			if (isPresetError(err, 'not_playable')) return fail(409, { visibility: { code: 'notPlayable' as const, message: err.message } });
			if (isPresetError(err, 'forbidden'))
				return fail(403, {
					visibility: {
						code: err.details.wording?.key === 'preset.copyTakenDown' ? ('copyTakenDown' as const) : ('moderated' as const),
						message: err.message
					}
				});
			presetPageError(err);
		}
		return { visibilityChanged: visibility };
	},
	/** The author deletes it; sessions already played from it keep their copy. */
	delete: async ({ locals, url, params }) => {
		const user = requireUser(locals, url);
		try {
			await deletePreset(await getApp(), user, params.id);
		} catch (err) {
			presetPageError(err);
		}
		redirect(303, '/presets?deleted=1');
	},
	/** The author appeals the takedown in force (once); the administrators read it on their reports page. */
	appeal: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const app = await getApp();
		const raw = formText(await request.formData(), 'appeal');
		const text = v.safeParse(AppealSchema, raw);
		if (!text.success) return fail(400, { appeal: { text: raw, error: 'empty' as const } });
		try {
			await appealTakedown(app.control.db, await visiblePreset(app.control.db, params.id, user), user, text.output);
		} catch (err) {
			if (isPresetError(err, 'forbidden')) return fail(409, { appeal: { text: raw, error: 'already' as const } });
			presetPageError(err);
		}
		return { appealed: true };
	},
	/** Any signed-in user but the author reports it to the administrators. */
	report: async ({ request, locals, url, params }) => {
		const user = requireUser(locals, url);
		const app = await getApp();
		const raw = formText(await request.formData(), 'reason');
		const reason = v.safeParse(ReportReasonSchema, raw);
		if (!reason.success) return fail(400, { report: { reason: raw, error: 'empty' as const } });
		try {
			const row = await visiblePreset(app.control.db, params.id, user);
			if (isAuthor(row, user)) return fail(403, { report: { reason: raw, error: 'own' as const } });
			await reportPreset(app.control.db, row, user, reason.output);
		} catch (err) {
			presetPageError(err);
		}
		return { reported: true };
	}
} satisfies Actions;

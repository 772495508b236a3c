import { apiEndpoint, readJson } from '$lib/server/api';
import { dropDraft, storeDraft } from '$lib/server/presets';
import { PresetFormSchema } from '$lib/presets/form';
import type { RequestHandler } from './$types';

/** Autosave: the editor's unsaved form (any state, within the draft's bounds). Your own presets only. */
export const PUT = apiEndpoint(async ({ app, user, params, request }) => {
	const form = await readJson(request, PresetFormSchema);
	await storeDraft(app, user, params.id, form);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

/** Throws the draft away; the current version stays as it is. */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await dropDraft(app, user, params.id);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

import * as v from 'valibot';
import { apiEndpoint, jsonResponse, readJson, PresetBody, VisibilityBody, badRequest } from '$lib/server/api';
import { changeVisibility, deletePreset, presetView, updateFromInput } from '$lib/server/presets';
import { LanguageSchema } from '$lib/types/settings';
import type { RequestHandler } from './$types';

const LanguageQuery = v.optional(LanguageSchema);

/**
 * The author gets everything (content and draft); anyone else who may see it gets the public card:
 * never document bodies, NPC personalities, GM behaviour or secrets. `?language=` picks an official
 * preset's language. Private and not yours: 404.
 */
export const GET = apiEndpoint(async ({ app, user, params, url }) => {
	const language = v.safeParse(LanguageQuery, url.searchParams.get('language') ?? undefined);
	if (!language.success) throw badRequest(language.issues[0].message, 'INVALID_LANGUAGE');
	return jsonResponse(await presetView(app, params.id, user, language.output));
}) satisfies RequestHandler;

/** A new version from the preset's fields (sessions already started keep the version they copied). */
export const PUT = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, PresetBody);
	const row = await updateFromInput(app, user, params.id, body);
	return jsonResponse({ id: row.id, version: row.currentVersion, visibility: row.visibility });
}) satisfies RequestHandler;

/** `{visibility: "private" | "unlisted" | "public"}`. */
export const PATCH = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, VisibilityBody);
	const row = await changeVisibility(app, user, params.id, body.visibility);
	return jsonResponse({ id: row.id, version: row.currentVersion, visibility: row.visibility });
}) satisfies RequestHandler;

/** Deletes the preset; sessions already played from it keep their copy. */
export const DELETE = apiEndpoint(async ({ app, user, params }) => {
	await deletePreset(app, user, params.id);
	return new Response(null, { status: 204 });
}) satisfies RequestHandler;

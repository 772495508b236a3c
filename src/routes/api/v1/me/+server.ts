import { json } from '@sveltejs/kit';
import * as v from 'valibot';
import { ApiError, apiEndpoint, readJson, requireApiUser } from '$lib/server/api';
import { setShowMature, showsMature } from '$lib/server/auth';
import { getApp } from '$lib/server/app';
import type { RequestHandler } from './$types';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Who the cookie or Bearer token belongs to: the simplest way for a script to check its token. Also
 * `showMature`: whether the gallery lists worlds rated mature for them (null when the operator turned them off).
 */
export const GET: RequestHandler = async ({ locals }) => {
	const user = requireApiUser(locals);
	const app = await getApp();
	const showMature = app.config.presets.matureContent ? await showsMature(app.control.db, user.id) : null;
	return json({ id: user.id, name: user.name, isAdmin: user.isAdmin, showMature }, { headers: NO_STORE });
};

const PreferencesBody = v.strictObject({ showMature: v.boolean('showMature must be true or false') });

/** Changes the account's preferences: `{ "showMature": true }`. 409 when the operator turned mature worlds off. */
export const PATCH = apiEndpoint(async ({ app, user, request }) => {
	const body = await readJson(request, PreferencesBody);
	if (!app.config.presets.matureContent) throw new ApiError(409, 'MATURE_OFF', 'This server does not show worlds rated mature to anyone.');
	await setShowMature(app.control.db, user.id, body.showMature);
	return json({ id: user.id, name: user.name, isAdmin: user.isAdmin, showMature: body.showMature }, { headers: NO_STORE });
}) satisfies RequestHandler;

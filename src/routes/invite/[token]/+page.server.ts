import { error, fail, redirect } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { formText, requireUser } from '$lib/server/hooks';
import { AcceptInvitationBody, acceptInvite } from '$lib/server/api';
import { InvitationError, previewInvitation, sessionAccess, PlaySessionNotFoundError } from '$lib/server/sessions';
import type { Actions, PageServerLoad } from './$types';

/**
 * Joining from an invitation link: after sign-in (the guard comes back here), one click takes the seat with a
 * character named after the account, or the one written in the form. Someone already at the table goes on
 * to the play page.
 */
export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireUser(locals, url);
	const app = await getApp();
	let preview;
	try {
		preview = await previewInvitation(app, params.token);
	} catch (err) {
		if (err instanceof InvitationError) return { problem: err.code, invitation: null, suggested: user.name };
		throw err;
	}
	const seated = await sessionAccess(app, user.id, preview.sessionId).catch((err: unknown) => {
		if (err instanceof PlaySessionNotFoundError) return null;
		throw err;
	});
	if (seated) redirect(303, `/sessions/${preview.sessionId}`);
	return { problem: null, invitation: { title: preview.title, host: preview.host }, suggested: user.name };
};

const optional = (text: string) => (text.trim() === '' ? undefined : text);

export const actions = {
	default: async ({ request, locals, params, url }) => {
		const user = requireUser(locals, url);
		const data = await request.formData();
		const character = { name: formText(data, 'name'), look: optional(formText(data, 'look')), sheet: optional(formText(data, 'sheet')) };
		const body = v.safeParse(AcceptInvitationBody, { character: { ...character, name: character.name.trim() || user.name } });
		if (!body.success) return fail(400, { character, message: body.issues[0].message });
		let sessionId: string;
		try {
			sessionId = (await acceptInvite(await getApp(), user, params.token, body.output)).sessionId;
		} catch (err) {
			if (err instanceof InvitationError)
				return fail(err.code === 'full' ? 409 : err.code === 'gone' ? 410 : 403, { character, problem: err.code });
			if (err instanceof PlaySessionNotFoundError) error(404, { message: 'There is no invitation at this address.', code: 'NOT_FOUND' });
			throw err;
		}
		redirect(303, `/sessions/${sessionId}`);
	}
} satisfies Actions;

import { error, redirect } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { getPlaySession, deletePlaySession, PlaySessionNotFoundError } from '$lib/server/sessions';
import type { Actions, PageServerLoad } from './$types';

const notFound = () => error(404, { message: 'There is no play session at this address.', code: 'NOT_FOUND' });

/** The confirmation step is its own page, so deleting works the same with or without JavaScript. */
export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireUser(locals, url);
	try {
		const s = await getPlaySession(await getApp(), user.id, params.id);
		return { session: { id: s.id, title: s.title } };
	} catch (err) {
		if (err instanceof PlaySessionNotFoundError) notFound();
		throw err;
	}
};

export const actions = {
	default: async ({ locals, params, url }) => {
		const user = requireUser(locals, url);
		try {
			await deletePlaySession(await getApp(), user.id, params.id);
		} catch (err) {
			if (err instanceof PlaySessionNotFoundError) notFound();
			throw err;
		}
		redirect(303, '/');
	}
} satisfies Actions;

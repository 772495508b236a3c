import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireUser } from '$lib/server/hooks';
import { getPlaySession, PlaySessionNotFoundError } from '$lib/server/sessions';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireUser(locals, url);
	try {
		const s = await getPlaySession(await getApp(), user.id, params.id);
		return { session: { id: s.id, title: s.title, language: s.language, createdAt: s.createdAt.toISOString() } };
	} catch (err) {
		// Someone else's session is indistinguishable from one that does not exist.
		if (err instanceof PlaySessionNotFoundError) error(404, { message: 'There is no play session at this address.', code: 'NOT_FOUND' });
		throw err;
	}
};

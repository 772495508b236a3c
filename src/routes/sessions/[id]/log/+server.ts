import { error, json } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireApiUser } from '$lib/server/hooks';
import { getPlaySession, PlaySessionNotFoundError } from '$lib/server/sessions';
import { loadLogAfter } from '$lib/server/play';
import type { RequestHandler } from './$types';

const CURSOR = /^\d{1,15}$/;

/**
 * What a committed turn added, for the open play page: the messages after `?after=` with their
 * stage cues, and the current images. The page reads it when `turn.committed` arrives.
 */
export const GET: RequestHandler = async ({ locals, params, url }) => {
	const user = requireApiUser(locals);
	const after = url.searchParams.get('after') ?? '0';
	if (!CURSOR.test(after)) error(400, { message: 'after must be a message id (a non-negative integer).', code: 'INVALID_QUERY' });
	const app = await getApp();
	try {
		const s = await getPlaySession(app, user.id, params.id);
		const log = await app.sessions.use(s.id, (db) => loadLogAfter(db.db, s.id, Number(after)));
		return json(log, { headers: { 'cache-control': 'no-store' } });
	} catch (err) {
		if (err instanceof PlaySessionNotFoundError) error(404, { message: 'There is no play session at this address.', code: 'NOT_FOUND' });
		throw err;
	}
};

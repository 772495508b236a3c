import { json } from '@sveltejs/kit';
import { requireApiUser } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** Who the cookie or Bearer token belongs to: the simplest way for a script to check its token. */
export const GET: RequestHandler = ({ locals }) => {
	const user = requireApiUser(locals);
	return json({ id: user.id, name: user.name, isAdmin: user.isAdmin }, { headers: { 'cache-control': 'no-store' } });
};

import { json } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import type { RequestHandler } from './$types';

/** Liveness and readiness: answers 200 once the control database answers. */
export const GET: RequestHandler = async () => {
	const app = await getApp();
	await app.control.client.execute('SELECT 1');
	return json({ ok: true, service: 'kantera' }, { headers: { 'cache-control': 'no-store' } });
};

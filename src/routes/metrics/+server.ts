/**
 * Prometheus metrics for the operator (docs/api.md, README "Metrics and logs"): `Authorization: Bearer
 * $KANTERA_METRICS_TOKEN`. Without a configured token the endpoint does not exist (404); a missing or
 * wrong token is 401.
 */
import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { METRICS_CONTENT_TYPE, metricsAccess, scrapeMetrics } from '$lib/server/ops';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ request }) => {
	const app = await getApp();
	const access = metricsAccess(app.config.ops.metricsToken, request.headers.get('authorization'));
	if (access === 'absent') error(404, 'Not Found');
	if (access === 'refused')
		return new Response('A valid metrics token is required (Authorization: Bearer …).\n', {
			status: 401,
			headers: {
				'content-type': 'text/plain; charset=utf-8',
				'www-authenticate': 'Bearer realm="kantera-metrics"',
				'cache-control': 'no-store'
			}
		});
	const body = await scrapeMetrics({ control: app.control.db, turns: app.runner, images: app.images });
	return new Response(body, { headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' } });
};

/**
 * What an operator sees of a running server, checked the same way under every runtime: `/metrics`
 * behind its token, one JSON log line per request (route ids, no raw paths, no secrets) and per turn.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { jsonLogLines, parseExposition, type Samples } from '../helpers/metrics';

/** The operator token the e2e servers that test metrics are started with (KANTERA_METRICS_TOKEN). */
export const METRICS_TOKEN = 'e2e-metrics-token-7f3a9c2e51d04b86';

/** Scrapes /metrics: refused without the token, Prometheus text with it. */
export async function scrapeMetrics(api: APIRequestContext): Promise<Samples> {
	const refused = await api.get('/metrics');
	expect(refused.status()).toBe(401);
	const wrong = await api.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}-not` } });
	expect(wrong.status()).toBe(401);
	const res = await api.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
	expect(res.status()).toBe(200);
	expect(res.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
	expect(res.headers()['x-request-id']).toMatch(/^[\w.:-]+$/);
	return parseExposition(await res.text());
}

/**
 * The server's request lines: each with its id, method, route id (never the path it was asked), status
 * and duration; none holds any of `secrets` (passwords, cookies, tokens, a player's words).
 */
export function expectRequestLog(output: string, secrets: readonly string[]) {
	const lines = jsonLogLines(output);
	const requests = lines.filter((l) => l.msg === 'request');
	expect(requests.length).toBeGreaterThan(0);
	for (const r of requests) {
		expect(r).toMatchObject({
			requestId: expect.any(String),
			method: expect.any(String),
			status: expect.any(Number),
			durationMs: expect.any(Number)
		});
		// A route id names its parameters ([id]); a raw session path would carry the id itself.
		if (typeof r.route === 'string') expect(r.route).not.toMatch(/\/[a-z2-7]{20}(\/|$)/);
	}
	const text = output
		.split('\n')
		.filter((l) => l.startsWith('{'))
		.join('\n');
	for (const secret of secrets) expect(text).not.toContain(secret);
	return { requests, turns: lines.filter((l) => l.msg === 'turn') };
}

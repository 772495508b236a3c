/**
 * `GET /metrics` and the turn's log line, driven by real GM turns against the mock LLM (real SDK, real
 * libSQL files, the real runner): the counters move by exactly what the turns did, read back through
 * the endpoint's Prometheus text; the operator token guards it; the log line has the turn's figures and
 * none of its text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isHttpError } from '@sveltejs/kit';
import { apiHarness, waitForTurn, type ApiHarness } from '../api/client';
import { AcceptedTurn, bodyOf, Session } from '../api/shapes';
import { sseReader } from '../api/sse-reader';
import { tempDir } from '../../helpers/env';
import { parseExposition, type Samples } from '../../helpers/metrics';
import { parseConfig, ConfigError } from '../../../src/lib/server/config';
import { configureLog, handleRequestLog, logSettings } from '../../../src/lib/server/ops';
import { createToken } from '../../../src/lib/server/auth';
import * as metricsRoute from '../../../src/routes/metrics/+server';

const TOKEN = 'metrics-token-0123456789abcdef';
/** USD per million tokens; the expected cost below is worked out by hand from these. */
const PRICES = { 'mock-model': { input: 2, output: 8, cachedInput: 0.5 } };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(env: Record<string, string> = { KANTERA_METRICS_TOKEN: TOKEN }): Promise<ApiHarness> {
	const dir = tempDir('kantera-prices-');
	cleanups.push(() => dir.remove());
	const prices = path.join(dir.dir, 'prices.json');
	writeFileSync(prices, JSON.stringify(PRICES));
	const h = await apiHarness({ env: { KANTERA_PRICES_FILE: prices, KANTERA_FREE_TURNS_PER_DAY: '0', ...env } });
	cleanups.push(() => h.cleanup());
	return h;
}

async function scrapeResponse(authorization?: string): Promise<Response> {
	const url = new URL('http://kantera.test/metrics');
	const request = new Request(url, { headers: authorization === undefined ? {} : { authorization } });
	// @ts-expect-error the handler reads only the request; a full RequestEvent is SvelteKit's to build.
	return metricsRoute.GET({ request, url });
}

async function scrape(): Promise<Samples> {
	const res = await scrapeResponse(`Bearer ${TOKEN}`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
	return parseExposition(await res.text());
}

const at = (s: Samples, key: string) => s.get(key) ?? 0;
/** How much each sample moved between two scrapes. */
const moved = (before: Samples, after: Samples, key: string) => Number((at(after, key) - at(before, key)).toFixed(9));

const PLAYER_TEXT = 'I whisper the password "heron-violet-42" to the gatekeeper.';
const REPLY = 'The gatekeeper nods and the iron gate groans open.';

describe('GET /metrics', () => {
	it('counts a GM turn, its LLM calls, tokens and cost, and the open event stream, by exactly what happened', async () => {
		const h = await harness();
		const lines: string[] = [];
		const saved = logSettings();
		configureLog({ sink: (line) => lines.push(line) });
		cleanups.push(() => configureLog(saved));
		const api = h.as(h.alice);
		const session = await bodyOf(await api.post('/api/v1/sessions', { title: 'Metrics' }), Session);

		const before = await scrape();
		const stream = sseReader(await api.get(`/api/v1/sessions/${session.id}/events`));
		await stream.next();
		const streaming = await scrape();
		expect(moved(before, streaming, 'kantera_sse_connections{}')).toBe(1);
		expect(moved(before, streaming, 'kantera_sse_connections_opened_total{}')).toBe(1);

		h.mock?.script([
			{
				toolCalls: [{ name: 'journal_append', arguments: { entry: 'The gate was opened with a password.' } }],
				usage: { inputTokens: 1000, outputTokens: 50 }
			},
			{ text: REPLY, usage: { inputTokens: 1200, cachedInputTokens: 400, outputTokens: 100 } }
		]);
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${session.id}/turns`, { text: PLAYER_TEXT, idempotencyKey: 'metrics-turn-1' }),
			AcceptedTurn
		);
		await waitForTurn(api, session.id, turn.turnId);
		await h.app.runner.idle();
		const after = await scrape();

		const llm = 'model=mock-model,provider=openai';
		expect(moved(before, after, 'kantera_turns_total{kind=player,status=committed}')).toBe(1);
		expect(moved(before, after, 'kantera_turns_total{kind=player,status=failed}')).toBe(0);
		expect(moved(before, after, 'kantera_turn_duration_seconds_count{kind=player,status=committed}')).toBe(1);
		expect(moved(before, after, 'kantera_turn_duration_seconds_sum{kind=player,status=committed}')).toBeGreaterThan(0);
		expect(moved(before, after, 'kantera_llm_call_duration_seconds_count{model=mock-model,outcome=ok,provider=openai}')).toBe(2);
		expect(moved(before, after, `kantera_llm_tokens_total{${llm},type=input}`)).toBe(2200);
		expect(moved(before, after, `kantera_llm_tokens_total{${llm},type=cached_input}`)).toBe(400);
		expect(moved(before, after, `kantera_llm_tokens_total{${llm},type=output}`)).toBe(150);
		// (1000 × 2 + 50 × 8) + (800 × 2 + 400 × 0.5 + 100 × 8) micro-dollars.
		expect(moved(before, after, `kantera_llm_cost_usd_total{${llm}}`)).toBe(0.005);
		expect(at(after, 'kantera_turns_running{}')).toBe(0);

		await stream.close();
		const closed = await scrape();
		expect(moved(before, closed, 'kantera_sse_connections{}')).toBe(0);

		// The turn's log line: its ids and figures, none of its words.
		const turnLines = lines.filter((l) => l.includes(turn.turnId));
		expect(turnLines).toHaveLength(1);
		const line = turnLines[0] ?? '';
		expect(JSON.parse(line)).toEqual({
			time: expect.any(String),
			level: 'info',
			msg: 'turn',
			sessionId: session.id,
			turnId: turn.turnId,
			kind: 'player',
			status: 'committed',
			durationMs: expect.any(Number),
			provider: 'openai',
			model: 'mock-model',
			calls: 2,
			inputTokens: 2200,
			cachedInputTokens: 400,
			outputTokens: 150,
			costUsd: 0.005
		});
		for (const words of ['heron-violet', 'password', 'gatekeeper', 'iron gate', 'journal'])
			expect(lines.join('\n').toLowerCase()).not.toContain(words);
	});

	it('counts a failed turn and its failed call', async () => {
		const h = await harness();
		const api = h.as(h.alice);
		const session = await bodyOf(await api.post('/api/v1/sessions', { title: 'Failures' }), Session);
		const before = await scrape();
		// A 400 is not retried: one call, failed, and the turn fails with it.
		h.mock?.script([{ fault: { kind: 'status', status: 400, message: 'bad request' } }]);
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${session.id}/turns`, { text: 'Knock.', idempotencyKey: 'metrics-turn-2' }),
			AcceptedTurn
		);
		await waitForTurn(api, session.id, turn.turnId);
		await h.app.runner.idle();
		const after = await scrape();
		expect(moved(before, after, 'kantera_turns_total{kind=player,status=failed}')).toBe(1);
		expect(moved(before, after, 'kantera_turns_total{kind=player,status=committed}')).toBe(0);
		expect(moved(before, after, 'kantera_llm_call_duration_seconds_count{model=mock-model,outcome=failed,provider=openai}')).toBe(1);
		expect(moved(before, after, 'kantera_llm_call_duration_seconds_count{model=mock-model,outcome=ok,provider=openai}')).toBe(0);
	});

	it('writes no turn line at KANTERA_LOG_LEVEL=warn, and still counts the turn', async () => {
		const lines: string[] = [];
		const saved = logSettings();
		cleanups.push(() => configureLog(saved));
		const h = await harness({ KANTERA_METRICS_TOKEN: TOKEN, KANTERA_LOG_LEVEL: 'warn' });
		configureLog({ sink: (line) => lines.push(line) });
		const api = h.as(h.alice);
		const session = await bodyOf(await api.post('/api/v1/sessions', { title: 'Quiet' }), Session);
		const play = async (text: string, idempotencyKey: string) => {
			h.mock?.script([{ text: REPLY }]);
			const turn = await bodyOf(await api.post(`/api/v1/sessions/${session.id}/turns`, { text, idempotencyKey }), AcceptedTurn);
			await waitForTurn(api, session.id, turn.turnId);
			await h.app.runner.idle();
			return turn.turnId;
		};
		const before = await scrape();
		await play('Knock.', 'metrics-turn-3');
		expect(moved(before, await scrape(), 'kantera_turns_total{kind=player,status=committed}')).toBe(1);
		expect(lines).toEqual([]);
		// The same turn's line at the default level, so the check above can fail.
		configureLog({ level: 'info' });
		const loud = await play('Knock again.', 'metrics-turn-4');
		expect(lines.filter((l) => l.includes(loud))).toHaveLength(1);
	});

	it('has the process metrics and each request’s duration by route id, never the path asked for', async () => {
		await harness();
		const quiet = logSettings();
		configureLog({ level: 'warn' });
		cleanups.push(() => configureLog(quiet));
		const request = async (path: string, route: string | null, status: number) => {
			const event = { request: new Request(`http://kantera.test${path}`), route: { id: route }, locals: {} };
			// @ts-expect-error the hook reads the request, the route id and locals; a full RequestEvent is SvelteKit's to build.
			await handleRequestLog({ event, resolve: () => Promise.resolve(new Response('x', { status })) });
		};
		const key = (route: string, status: number) =>
			`kantera_http_request_duration_seconds_count{method=GET,route=${route},status=${status}}`;
		const before = await scrape();
		await request('/api/v1/sessions/abcdefghijklmnopqrst', '/api/v1/sessions/[id]', 200);
		await request('/api/v1/sessions/bcdefghijklmnopqrstu', '/api/v1/sessions/[id]', 200);
		await request('/no/such/page', null, 404);
		const after = await scrape();
		expect(moved(before, after, key('/api/v1/sessions/[id]', 200))).toBe(2);
		expect(moved(before, after, key('unmatched', 404))).toBe(1);
		expect([...after.keys()].filter((k) => k.includes('abcdefghijklmnopqrst') || k.includes('/no/such'))).toEqual([]);
		// prom-client's defaults: CPU, memory, heap, event-loop lag.
		for (const name of [
			'process_cpu_user_seconds_total{}',
			'process_resident_memory_bytes{}',
			'nodejs_heap_size_used_bytes{}',
			'nodejs_eventloop_lag_seconds{}'
		])
			expect(after.has(name), name).toBe(true);
	});

	it('answers only the operator token: none configured is 404, a missing or wrong one 401', async () => {
		const h = await harness();
		const refused = await scrapeResponse();
		expect(refused.status).toBe(401);
		expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
		expect((await scrapeResponse(`Bearer ${TOKEN}x`)).status).toBe(401);
		expect((await scrapeResponse(`Bearer ${TOKEN.slice(0, -1)}`)).status).toBe(401);
		expect((await scrapeResponse(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).status).toBe(401);
		// A player's API token is not the operator's.
		const apiToken = await createToken(h.app, h.alice.id, 'script');
		expect((await scrapeResponse(`Bearer ${apiToken.token}`)).status).toBe(401);
		expect((await scrapeResponse(`bearer   ${TOKEN}`)).status).toBe(200);

		await h.cleanup();
		cleanups.pop();
		await harness({});
		const absent = await scrapeResponse(`Bearer ${TOKEN}`).then(
			() => undefined,
			(err: unknown) => err
		);
		expect(isHttpError(absent) && absent.status).toBe(404);
	});

	it('validates its settings', () => {
		const base = { KANTERA_DATA_DIR: '/tmp/kantera-never-opened' };
		expect(parseConfig({ ...base, KANTERA_METRICS_TOKEN: TOKEN }).ops).toEqual({
			metricsToken: TOKEN,
			logFormat: 'json',
			logLevel: 'info'
		});
		expect(parseConfig(base).ops).toEqual({ metricsToken: undefined, logFormat: 'json', logLevel: 'info' });
		expect(parseConfig({ ...base, KANTERA_LOG_FORMAT: 'text' }).ops.logFormat).toBe('text');
		expect(parseConfig({ ...base, KANTERA_LOG_LEVEL: 'warn' }).ops.logLevel).toBe('warn');
		expect(() => parseConfig({ ...base, KANTERA_LOG_LEVEL: 'debug' })).toThrow(/KANTERA_LOG_LEVEL: must be info or warn/);
		expect(() => parseConfig({ ...base, KANTERA_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
		expect(() => parseConfig({ ...base, KANTERA_METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/KANTERA_METRICS_TOKEN/);
		expect(() => parseConfig({ ...base, KANTERA_LOG_FORMAT: 'xml' })).toThrow(/KANTERA_LOG_FORMAT: must be json or text/);
	});
});

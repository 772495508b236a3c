/**
 * The Bun and Deno targets, started as the README says (`KANTERA_ADAPTER=bun npm start`, the same for
 * deno, with nothing else set but the port, the data directory and the mock LLM), each from its own
 * build (`npm run test:e2e` builds every target in one `vite build`). Each gets the smoke a player's
 * first minutes give it — sign-up through the form at http://localhost:PORT, a session from a world, one
 * GM turn streamed over SSE, a reload that shows it — and the guarantees `npm start` gives under Node:
 * the API's 415 and JSON 413, and form posts from another origin refused.
 *
 * Keep-alive comments are turned off on these servers (KANTERA_SSE_KEEPALIVE_MS=0) so that an event
 * stream opened at the start stays silent while the smoke tests run; the last test checks, once it has
 * been quiet for at least 30 s, that it is still open and still delivers. Bun closes a connection
 * silent for its idleTimeout (10 s by default) unless the server exempts event streams.
 */
import { test, expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startLikeReadme, type StartedServer } from './start-server';
import { uniqueName, signUp, createSession, PASSWORD } from './helpers';
import { sseReader, type SseFrame, type SseReader } from '../unit/api/sse-reader';
import { GATE_REPLY } from '../mock-llm/adv-play';
import { METRICS_TOKEN, expectRequestLog, scrapeMetrics } from './ops-checks';

const RUNTIMES = ['bun', 'deno'] as const;
type Runtime = (typeof RUNTIMES)[number];
const BUILDS: Record<Runtime, string> = { bun: 'build-bun/handler.js', deno: '.deno-deploy/server/index.js' };
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = 'test-results/runtimes';
const QUIET_MS = 30_000;
const START_TIMEOUT_MS = 120_000;

interface QuietStream {
	runtime: Runtime;
	api: APIRequestContext;
	sessionId: string;
	reader: SseReader;
	/** The stream's next frame (or its end), asked for as soon as it opened. */
	next: Promise<SseFrame | undefined>;
	openedAt: number;
	endedAfterMs?: number;
}

let servers: Partial<Record<Runtime, StartedServer>> = {};
let quiet: QuietStream[] = [];

function server(runtime: Runtime): StartedServer {
	const s = servers[runtime];
	if (!s) throw new Error(`the ${runtime} server did not start`);
	return s;
}

/** A user signed up through the form post and a session, all over HTTP; then the session's event stream. */
async function openQuietStream(playwright: PlaywrightWorkerArgs['playwright'], runtime: Runtime): Promise<QuietStream> {
	const { url } = server(runtime);
	const api = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
	const signup = await api.post('/signup', {
		form: { name: uniqueName(`quiet-${runtime}`), password: PASSWORD },
		headers: { accept: 'text/html' },
		maxRedirects: 0
	});
	expect(signup.status()).toBe(303);
	const created = await api.post('/api/v1/sessions', { data: { title: `Quiet under ${runtime}` } });
	expect(created.status()).toBe(201);
	const { id }: { id: string } = await created.json();
	const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
	const res = await fetch(`${url}/api/v1/sessions/${id}/events`, { headers: { cookie, accept: 'text/event-stream' } });
	expect(res.headers.get('content-type')).toBe('text/event-stream');
	const reader = sseReader(res);
	const first = await reader.next();
	expect(first?.retry).toBeDefined();
	const stream: QuietStream = { runtime, api, sessionId: id, reader, next: nextLogged(reader), openedAt: Date.now() };
	// Notes when the stream ends on its own (it must not, until the test sends a turn).
	void stream.next.then(
		(frame) => {
			if (frame === undefined) stream.endedAfterMs = Date.now() - stream.openedAt;
		},
		() => (stream.endedAfterMs = Date.now() - stream.openedAt)
	);
	return stream;
}

/** The stream's next frame that is not presence (who is here: sent as a stream opens and on changes, never logged). */
async function nextLogged(reader: SseReader): Promise<SseFrame | undefined> {
	for (;;) {
		const frame = await reader.next();
		if (frame?.event !== 'presence') return frame;
	}
}

test.beforeAll(async ({ playwright }) => {
	test.setTimeout(START_TIMEOUT_MS);
	for (const runtime of RUNTIMES) {
		if (!existsSync(path.join(ROOT, BUILDS[runtime])))
			throw new Error(`No ${runtime} build: run \`KANTERA_ADAPTER=node,bun,deno npm run build\` (npm run test:e2e does) first.`);
	}
	const mockPort = process.env.KANTERA_E2E_MOCK_PORT;
	if (!mockPort) throw new Error('KANTERA_E2E_MOCK_PORT is unset: run through playwright.config.ts, which starts the mock LLM');
	const started = await Promise.all(
		RUNTIMES.map((runtime) =>
			startLikeReadme({
				KANTERA_ADAPTER: runtime,
				OPENAI_BASE_URL: `http://127.0.0.1:${mockPort}/v1`,
				OPENAI_API_KEY: 'e2e-mock-key',
				KANTERA_LLM_MODEL: 'mock-model',
				KANTERA_SSE_KEEPALIVE_MS: '0',
				KANTERA_METRICS_TOKEN: METRICS_TOKEN,
				// One of them with HOST, the other on its default (all interfaces).
				...(runtime === 'deno' ? { HOST: '127.0.0.1' } : {})
			})
		)
	);
	servers = { bun: started[0], deno: started[1] };
	expect(server('bun').output()).toContain(`Listening on http://0.0.0.0:${server('bun').port} (Bun `);
	expect(server('deno').output()).toContain(`Listening on http://127.0.0.1:${server('deno').port} (Deno `);
	quiet = await Promise.all(RUNTIMES.map((runtime) => openQuietStream(playwright, runtime)));
});

test.afterAll(async () => {
	for (const s of quiet) {
		await s.reader.close().catch(() => undefined);
		await s.api.dispose();
	}
	await Promise.all(Object.values(servers).map((s) => s.stop()));
});

const PLAYER_LINE = 'I walk up to the north gate. #gate';

const lineText = (page: Page) => page.getByTestId('line-text');
const input = (page: Page) => page.getByLabel('What do you do?');

/** Enter until the window asks for the player's line. */
async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

for (const runtime of RUNTIMES) {
	test(`${runtime}: sign-up at http://localhost, a session from a world, a GM turn streamed over SSE, a reload shows it`, async ({
		browser
	}) => {
		const context = await browser.newContext({ baseURL: `http://localhost:${server(runtime).port}` });
		const page = await context.newPage();
		/** Event streams the page opened (EventSource), by URL. */
		const streams: string[] = [];
		page.on('response', (r) => {
			if (r.headers()['content-type'] === 'text/event-stream') streams.push(new URL(r.url()).pathname);
		});
		try {
			await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
			await signUp(page, uniqueName(runtime));
			const id = await createSession(page, `North gate under ${runtime}`, /Vesca/);
			await expect(page.getByTestId('title-card')).toBeVisible();
			await page.keyboard.press('Enter');
			await readToEnd(page);

			await input(page).fill(PLAYER_LINE);
			await input(page).press('Enter');
			// The reply's first paragraph reaches the screen through the event stream.
			await expect(lineText(page)).toHaveText('Fog hangs over the north gate.', { timeout: 30_000 });
			expect(streams).toContain(`/api/v1/sessions/${id}/events`);
			await expect(page.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
			await page.screenshot({ path: `${SHOTS}/${runtime}-turn.png` });

			// The window reopens on the line being read (issue 24): read to the end of the reply, then look.
			await page.reload();
			await readToEnd(page);
			await expect(page.locator('.stage [data-scene]')).toHaveAttribute('data-scene', 'North Gate');
			await expect(page.locator('[data-slot="left"]')).toHaveAttribute('data-character', 'Bram');
			await page.screenshot({ path: `${SHOTS}/${runtime}-reloaded.png` });
			const messages = await page.request.get(`/api/v1/sessions/${id}/messages?limit=50`);
			const { messages: log }: { messages: { role: string; body: string }[] } = await messages.json();
			expect(log.filter((m) => m.role === 'gm').map((m) => m.body)).toContain(GATE_REPLY);
		} finally {
			await context.close();
		}
	});

	test(`${runtime}: /metrics counts the GM turn and the open stream; one JSON log line per request and per turn`, async ({
		playwright
	}) => {
		const api = await playwright.request.newContext({ baseURL: server(runtime).url });
		try {
			const samples = await scrapeMetrics(api);
			expect(samples.get('kantera_turns_total{kind=player,status=committed}')).toBeGreaterThanOrEqual(1);
			expect(samples.get('kantera_llm_call_duration_seconds_count{model=mock-model,outcome=ok,provider=openai}')).toBeGreaterThanOrEqual(1);
			expect(samples.get('kantera_llm_tokens_total{model=mock-model,provider=openai,type=output}')).toBeGreaterThan(0);
			// The quiet stream opened before the tests is still open.
			expect(samples.get('kantera_sse_connections{}')).toBeGreaterThanOrEqual(1);
			const { requests, turns } = expectRequestLog(server(runtime).output(), [PLAYER_LINE, PASSWORD, GATE_REPLY, METRICS_TOKEN]);
			expect(requests.map((r) => r.route)).toContain('/api/v1/sessions/[id]/events');
			expect(turns).toContainEqual(
				expect.objectContaining({
					kind: 'player',
					status: 'committed',
					provider: 'openai',
					model: 'mock-model',
					sessionId: expect.any(String)
				})
			);
		} finally {
			await api.dispose();
		}
	});

	test(`${runtime}: the API's 415 and JSON 413, and form posts from another origin refused`, async ({ playwright }) => {
		const { url, port } = server(runtime);
		const api = await playwright.request.newContext({ baseURL: url });
		try {
			const form = await api.post('/api/v1/sessions', { form: { title: 'x' }, headers: { origin: url } });
			expect(form.status()).toBe(415);
			expect(await form.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
			const big = await api.post('/api/v1/sessions', { data: { title: 'x'.repeat(1_048_577) }, headers: { origin: url } });
			expect(big.status()).toBe(413);
			expect(await big.json()).toMatchObject({ code: 'BODY_TOO_LARGE' });
			const signup = (origin: string) =>
				api.post('/signup', {
					form: { name: uniqueName('origin'), password: PASSWORD },
					headers: { accept: 'text/html', origin },
					maxRedirects: 0
				});
			expect((await signup(url)).status()).toBe(303);
			expect((await signup('http://evil.example')).status()).toBe(403);
			expect((await signup(`http://localhost:${port + 1}`)).status()).toBe(403);
			// The scheme comes from the connection, never from a header a client can send.
			expect((await signup(`https://127.0.0.1:${port}`)).status()).toBe(403);
		} finally {
			await api.dispose();
		}
	});
}

test(`an event stream quiet for ${QUIET_MS / 1000} s stays open under Bun and Deno, and still delivers`, async () => {
	test.setTimeout(QUIET_MS + 60_000);
	const waitMs = Math.max(0, ...quiet.map((s) => s.openedAt + QUIET_MS - Date.now()));
	await new Promise((resolve) => setTimeout(resolve, waitMs));
	for (const s of quiet) {
		expect(s.endedAfterMs, `${s.runtime}: the stream was closed after ${s.endedAfterMs} ms`).toBeUndefined();
	}
	await Promise.all(
		quiet.map(async (s) => {
			const turn = await s.api.post(`/api/v1/sessions/${s.sessionId}/turns`, {
				data: { text: 'I wait by the fire.', idempotencyKey: `quiet-${s.runtime}-0001` }
			});
			expect(turn.status()).toBe(202);
			// Nothing came while it was quiet: the first frame after the wait is the turn's.
			const first = await s.next;
			expect(first?.event, `${s.runtime}: first frame after ${Date.now() - s.openedAt} ms`).toMatch(/^turn\./);
			await s.reader.until((f) => f.event === 'turn.committed' || f.event === 'turn.failed');
		})
	);
});

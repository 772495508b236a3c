/**
 * The Cloudflare Workers target under workerd, started as the README says (`KANTERA_ADAPTER=cloudflare npm start`,
 * which runs `wrangler dev --local`), from its own build (`npm run test:e2e` builds it with the others), with every
 * database on the Hrana test server, images in s3rver and the mock LLM. What a player does, at 0 and then 150 ms
 * per database request: sign-up through the form at http://localhost, a session from a world, a GM turn streamed
 * over SSE, a second tab, a reload mid-turn and the next turn; and what only an isolate host can get wrong: an
 * aborted stream that must still end (the open-stream gauge back to 0), a 90-second turn nobody watches (longer
 * than a request's work may outlive it: the session object's alarm carries it), the Worker restarted mid-turn (the
 * turn ends interrupted once and the next one runs), and a log free of workerd's "hung" and "different request"
 * warnings (work one request started and another waited on).
 */
import { test, expect, request, type APIRequestContext, type Page } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { startLikeReadme, type StartedServer } from './start-server';
import { uniqueName, signUp, createSession, PASSWORD } from './helpers';
import { METRICS_TOKEN, scrapeMetrics } from './ops-checks';
import { startHranaServer, type HranaServer } from '../hrana';
import { startLocalS3, type LocalS3 } from '../s3';
import { sseReader } from '../unit/api/sse-reader';
import { DRAWN_REPLY, GATE_REPLY, LONG_REPLY_END } from '../mock-llm/adv-play';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = 'test-results/workers';
const START_TIMEOUT_MS = 120_000;
/** The Hrana test server's delay per request in the tests that run "far" from the database. */
const FAR_MS = 150;
/** The scripted #long turn streams for about 90 s; with the commit at 0 ms latency it ends well inside this. */
const LONG_TURN_MS = 150_000;

test.describe.configure({ mode: 'serial' });

let hrana: HranaServer;
let s3: LocalS3;
let dataDir: string;
let worker: StartedServer;
/** What every run of the Worker printed (the restart test starts a second one). */
const printed: string[] = [];
/** The 90-second turn, posted as soon as the Worker is up and looked at after the player's tests: the waits overlap. */
let longTurn: { api: APIRequestContext; id: string; turnId: string } | undefined;

function workerEnv(): Record<string, string> {
	const mockPort = process.env.KANTERA_E2E_MOCK_PORT;
	if (!mockPort) throw new Error('KANTERA_E2E_MOCK_PORT is unset: run through playwright.config.ts, which starts the mock LLM');
	return {
		KANTERA_ADAPTER: 'cloudflare',
		// The session objects' alarms are kept here, so a restarted Worker finds them.
		KANTERA_DATA_DIR: dataDir,
		KANTERA_CONTROL_DB_URL: hrana.urlFor('control'),
		KANTERA_SESSION_DB_URL: `${hrana.origin}/s-{id}/`,
		...s3.env(),
		OPENAI_BASE_URL: `http://127.0.0.1:${mockPort}/v1`,
		OPENAI_API_KEY: 'e2e-mock-key',
		KANTERA_LLM_MODEL: 'mock-model',
		KANTERA_METRICS_TOKEN: METRICS_TOKEN
	};
}

async function stopWorker(): Promise<void> {
	printed.push(worker.output());
	await worker.stop();
}

test.beforeAll(async () => {
	test.setTimeout(START_TIMEOUT_MS);
	if (!existsSync(path.join(ROOT, 'build-cloudflare/worker.js')))
		throw new Error('No cloudflare build: run `KANTERA_ADAPTER=cloudflare npm run build` (npm run test:e2e builds it) first.');
	dataDir = mkdtempSync(path.join(tmpdir(), 'kantera-workers-'));
	hrana = await startHranaServer({ dir: path.join(dataDir, 'dbs'), autoCreate: true });
	s3 = await startLocalS3();
	worker = await startLikeReadme(workerEnv());
	const { api, id } = await apiPlayer(request, 'long');
	longTurn = { api, id, turnId: await postTurn(api, id, 'Ring the bell. #long') };
});

test.afterAll(async () => {
	await longTurn?.api.dispose();
	await stopWorker();
	await s3.close();
	await hrana.close();
	rmSync(dataDir, { recursive: true, force: true });
});

const input = (page: Page) => page.getByLabel('What do you do?');
const lineText = (page: Page) => page.getByTestId('line-text');
const stop = (page: Page) => page.getByRole('button', { name: 'Stop' });
const turnIdle = (page: Page) => expect(stop(page)).toHaveAttribute('aria-disabled', 'true', { timeout: 30_000 });

async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

async function say(page: Page, text: string): Promise<void> {
	await readToEnd(page);
	await input(page).fill(text);
	await input(page).press('Enter');
}

async function gmLines(api: APIRequestContext, id: string): Promise<string[]> {
	const res = await api.get(`/api/v1/sessions/${id}/messages?limit=50`);
	const { messages }: { messages: { role: string; body: string }[] } = await res.json();
	return messages.filter((m) => m.role === 'gm').map((m) => m.body);
}

/** A signed-up API client of the running Worker and a session of its own from a world. */
async function apiPlayer(playwright: (typeof import('@playwright/test'))['request'], prefix: string) {
	const api = await playwright.newContext({ baseURL: worker.url, extraHTTPHeaders: { origin: worker.url } });
	const signup = await api.post('/signup', {
		form: { name: uniqueName(prefix), password: PASSWORD },
		headers: { accept: 'text/html' },
		maxRedirects: 0
	});
	expect(signup.status()).toBe(303);
	const created = await api.post('/api/v1/sessions', { data: { world: 'sword-and-sorcery', title: `${prefix} under workerd` } });
	expect(created.status()).toBe(201);
	const { id }: { id: string } = await created.json();
	return { api, id };
}

async function turnStatus(api: APIRequestContext, id: string, turnId: string): Promise<string> {
	const res = await api.get(`/api/v1/sessions/${id}/turns/${turnId}`);
	const { status }: { status: string } = await res.json();
	return status;
}

async function postTurn(api: APIRequestContext, id: string, text: string): Promise<string> {
	const res = await api.post(`/api/v1/sessions/${id}/turns`, { data: { text, idempotencyKey: uniqueName('turn') } });
	expect(res.status()).toBe(202);
	const { turnId }: { turnId: string } = await res.json();
	return turnId;
}

test('sign-up through the form, a session from a world, a GM turn over SSE; at 150 ms a second tab, a reload mid-turn, the next turn', async ({
	browser
}) => {
	test.setTimeout(180_000);
	const context = await browser.newContext({ baseURL: `http://localhost:${worker.port}` });
	await context.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	const page = await context.newPage();
	try {
		await signUp(page, uniqueName('workerd'));
		const id = await createSession(page, 'North gate under workerd', /Vesca/);
		await expect(page.getByTestId('title-card')).toBeVisible();
		await page.keyboard.press('Enter');
		await say(page, 'I walk up to the north gate. #gate');
		await expect(lineText(page)).toHaveText('Fog hangs over the north gate.', { timeout: 30_000 });
		await turnIdle(page);
		await page.screenshot({ path: `${SHOTS}/turn.png` });
		expect(await gmLines(page.request, id)).toContain(GATE_REPLY);

		hrana.setDelay(FAR_MS);
		const second = await context.newPage();
		await second.goto(`/sessions/${id}`);
		await expect(second.locator('.stage [data-scene]')).toHaveAttribute('data-scene', 'North Gate', { timeout: 30_000 });

		// A reply drawn out over ~20 s: the reload, and the end of the stream it closes (found at its next keep-alive,
		// 7.5 s on), come long before the commit, which the new stream must still deliver.
		await say(page, 'I keep watch on the road. #drawn');
		await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…', { timeout: 30_000 });
		await page.reload();
		await expect(stop(page)).toHaveAttribute('aria-disabled', 'true', { timeout: 60_000 });
		await turnIdle(second);
		await page.screenshot({ path: `${SHOTS}/reloaded-at-${FAR_MS}ms.png` });
		expect(await gmLines(page.request, id)).toContain(DRAWN_REPLY);

		await say(page, 'I thank the guard and walk on.');
		await expect(lineText(page)).toHaveText(/You said: I thank the guard and walk on\./, { timeout: 60_000 });
		await turnIdle(page);
	} finally {
		hrana.setDelay(0);
		await context.close();
	}
});

test('a stream the client aborts ends: the open-stream gauge goes back to 0', async ({ playwright }) => {
	const { api, id } = await apiPlayer(playwright.request, 'abort');
	try {
		const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
		const abort = new AbortController();
		const res = await fetch(`${worker.url}/api/v1/sessions/${id}/events`, {
			headers: { cookie, accept: 'text/event-stream' },
			signal: abort.signal
		});
		expect(res.headers.get('content-type')).toBe('text/event-stream');
		const reader = sseReader(res);
		expect((await reader.next())?.retry).toBeDefined();
		const open = async () => (await scrapeMetrics(api)).get('kantera_sse_connections{}');
		expect(await open()).toBeGreaterThanOrEqual(1);
		abort.abort();
		// The object learns of it at its next write: a keep-alive comes every 7.5 s.
		await expect.poll(open, { timeout: 30_000 }).toBe(0);
	} finally {
		await api.dispose();
	}
});

test('a 90-second turn nobody watches finishes (the session object’s alarm keeps it running)', async () => {
	test.setTimeout(LONG_TURN_MS + 60_000);
	if (!longTurn) throw new Error('the long turn was not posted');
	const { api, id, turnId } = longTurn;
	// No event stream open: an API client that posted it before the tests above and looks now and then.
	await expect.poll(() => turnStatus(api, id, turnId), { timeout: LONG_TURN_MS, intervals: [10_000] }).toBe('committed');
	expect((await gmLines(api, id)).some((line) => line.endsWith(LONG_REPLY_END))).toBe(true);
});

test('the Worker restarted mid-turn: the turn ends interrupted once, the next turn runs', async ({ playwright }) => {
	test.setTimeout(START_TIMEOUT_MS + 60_000);
	const { api, id } = await apiPlayer(playwright.request, 'restart');
	const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
	await api.dispose();
	const cut = await playwright.request.newContext({ baseURL: worker.url, extraHTTPHeaders: { origin: worker.url, cookie } });
	const turnId = await postTurn(cut, id, 'Ring the bell. #long');
	await expect.poll(() => turnStatus(cut, id, turnId), { timeout: 30_000 }).toBe('running');
	await cut.dispose();
	await stopWorker();
	worker = await startLikeReadme(workerEnv());
	const again = await playwright.request.newContext({ baseURL: worker.url, extraHTTPHeaders: { origin: worker.url, cookie } });
	try {
		// Once its lease has run out (15 s), whoever resumes the session first ends it: the object's alarm or this poll.
		await expect.poll(() => turnStatus(again, id, turnId), { timeout: 60_000, intervals: [2_000] }).toBe('interrupted');
		const next = await postTurn(again, id, 'I try the door again. #gate');
		await expect.poll(() => turnStatus(again, id, next), { timeout: 30_000 }).toBe('committed');
		const res = await fetch(`${worker.url}/api/v1/sessions/${id}/events`, {
			headers: { cookie, accept: 'text/event-stream', 'last-event-id': '0' }
		});
		const reader = sseReader(res);
		const frames = await reader.until((f) => f.event === 'turn.committed' && (f.data ?? '').includes(next));
		await reader.close();
		const ends = frames.filter(
			(f) => /^turn\.(committed|failed|interrupted|cancelled)$/.test(f.event ?? '') && (f.data ?? '').includes(turnId)
		);
		expect(ends.map((f) => f.event)).toEqual(['turn.interrupted']);
	} finally {
		await again.dispose();
	}
});

test('the log has no workerd warning of work hung or shared between requests', () => {
	// Without wrangler's colours.
	const log = stripVTControlCharacters([...printed, worker.output()].join('\n'));
	// wrangler dev, on all interfaces (HOST unset) and on PORT.
	expect(log).toMatch(/Ready on http:\/\/0\.0\.0\.0:\d+/);
	expect(log).toContain('"msg":"turn"');
	expect(log).not.toMatch(/hung|different request|Cannot perform I\/O/i);
});

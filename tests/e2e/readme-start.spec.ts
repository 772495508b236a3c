/**
 * The README's way in: `npm ci && npm run build && npm start`, nothing set, open http://localhost:3000
 * and sign up. Every form of the site must work at http://localhost:PORT and http://127.0.0.1:PORT,
 * while a form post from any other origin is still refused, and the proxy settings (ORIGIN,
 * PROTOCOL_HEADER/HOST_HEADER) keep their meaning.
 */
import { test, expect, type APIRequestContext, type Browser } from '@playwright/test';
import { startLikeReadme, type StartedServer } from './start-server';
import { uniqueName, signUp, signOut, signIn, createSession, PASSWORD } from './helpers';
import { METRICS_TOKEN, expectRequestLog, scrapeMetrics } from './ops-checks';

const SHOTS = 'test-results/readme-start';

async function playThroughForms(browser: Browser, baseURL: string, shot: string): Promise<void> {
	const context = await browser.newContext({ baseURL });
	const page = await context.newPage();
	try {
		const name = uniqueName('readme');
		await signUp(page, name);
		// Create opens the play screen; an empty world waits for the first line, with no title card.
		await createSession(page, 'Harbour at dawn', /Empty world/);
		// The language switches are form posts too: the play screen's settings…
		await page.getByRole('navigation', { name: 'Quick menu' }).getByRole('link', { name: 'Settings' }).click();
		await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: '日本語' }).click();
		await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
		await expect(page.getByRole('navigation', { name: 'クイックメニュー' })).toBeVisible();
		// …and the site's header.
		await page.goto('/', { waitUntil: 'networkidle' });
		const nav = page.getByRole('navigation', { name: 'Main' });
		await nav.getByLabel('表示言語').selectOption('en');
		await nav.getByRole('button', { name: '変更' }).click();
		await expect(page.locator('html')).toHaveAttribute('lang', 'en');
		await expect(page.getByRole('link', { name: 'Harbour at dawn', exact: true })).toBeVisible();
		await signOut(page);
		await signIn(page, name);
		await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
		await page.screenshot({ path: `${SHOTS}/${shot}.png` });
	} finally {
		await context.close();
	}
}

/** A sign-up form post as a browser without JavaScript sends it: 303 when accepted, 403 when refused as cross-site. */
function signUpPost(api: APIRequestContext, headers: Record<string, string>) {
	return api.post('/signup', {
		form: { name: uniqueName('post'), password: PASSWORD },
		headers: { accept: 'text/html', ...headers },
		maxRedirects: 0
	});
}

test.describe('npm start with nothing set', () => {
	let server: StartedServer;
	test.beforeAll(async () => {
		server = await startLikeReadme();
	});
	test.afterAll(async () => {
		await server.stop();
	});

	test('sign-up, sessions, language and sign-in forms work at http://localhost:PORT', async ({ browser }) => {
		await playThroughForms(browser, `http://localhost:${server.port}`, 'localhost');
	});

	test('… and at http://127.0.0.1:PORT', async ({ browser }) => {
		await playThroughForms(browser, `http://127.0.0.1:${server.port}`, '127.0.0.1');
	});

	test('a form post from another origin is refused, and a client cannot claim https for itself', async ({ playwright }) => {
		const api = await playwright.request.newContext({ baseURL: server.url });
		const signup = (headers: Record<string, string>) => signUpPost(api, headers);
		try {
			expect((await signup({ origin: server.url })).status()).toBe(303);
			const refused: Record<string, string>[] = [
				{ origin: 'http://evil.example' },
				{ origin: `http://localhost:${server.port + 1}` },
				{},
				// The scheme comes from the connection, never from a header a client can send.
				{ origin: `https://127.0.0.1:${server.port}`, 'x-forwarded-proto': 'https', 'x-kantera-socket-protocol': 'https' }
			];
			for (const headers of refused) {
				const res = await signup(headers);
				expect(res.status(), JSON.stringify(headers)).toBe(403);
			}
		} finally {
			await api.dispose();
		}
	});

	test('/metrics exists only with KANTERA_METRICS_TOKEN; one JSON log line per request, without paths or secrets', async ({
		playwright
	}) => {
		const plain = await playwright.request.newContext({ baseURL: server.url });
		try {
			expect((await plain.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status()).toBe(404);
		} finally {
			await plain.dispose();
		}
		const operated = await startLikeReadme({ KANTERA_METRICS_TOKEN: METRICS_TOKEN });
		const api = await playwright.request.newContext({ baseURL: operated.url, extraHTTPHeaders: { origin: operated.url } });
		try {
			const name = uniqueName('logged');
			const signup = await api.post('/signup', { form: { name, password: PASSWORD }, headers: { accept: 'text/html' }, maxRedirects: 0 });
			expect(signup.status()).toBe(303);
			const created = await api.post('/api/v1/sessions', { data: { title: 'Logged session' } });
			expect(created.status()).toBe(201);
			const { id }: { id: string } = await created.json();
			const read = await api.get(`/api/v1/sessions/${id}`, { headers: { 'x-request-id': 'proxy-req-42' } });
			expect(read.headers()['x-request-id']).toBe('proxy-req-42');
			const samples = await scrapeMetrics(api);
			expect(samples.get('kantera_turns_running{}')).toBe(0);
			expect(samples.get('kantera_sse_connections{}')).toBe(0);
			const cookies = (await api.storageState()).cookies.map((c) => c.value);
			const { requests } = expectRequestLog(operated.output(), [PASSWORD, METRICS_TOKEN, ...cookies]);
			const signedUp = requests.find((r) => r.route === '/signup' && r.method === 'POST');
			expect(signedUp).toMatchObject({ status: 303 });
			const userId = requests.find((r) => r.route === '/api/v1/sessions' && r.method === 'POST')?.userId;
			expect(userId).toEqual(expect.any(String));
			expect(requests.find((r) => r.requestId === 'proxy-req-42')).toMatchObject({ route: '/api/v1/sessions/[id]', status: 200, userId });
		} finally {
			await api.dispose();
			await operated.stop();
		}
	});
});

test.describe('behind a proxy', () => {
	test('ORIGIN: only that origin may post forms; HSTS is sent for an https origin', async ({ playwright }) => {
		const server = await startLikeReadme({ ORIGIN: 'https://kantera.example' });
		const api = await playwright.request.newContext({ baseURL: server.url });
		try {
			const signup = (origin: string) => signUpPost(api, { origin });
			expect((await signup('https://kantera.example')).status()).toBe(303);
			expect((await signup(server.url)).status()).toBe(403);
			expect((await signup('http://kantera.example')).status()).toBe(403);
			expect((await api.get('/signin')).headers()['strict-transport-security']).toMatch(/max-age=\d+/);
		} finally {
			await api.dispose();
			await server.stop();
		}
	});

	test('PROTOCOL_HEADER and HOST_HEADER: the proxy says where the browser is', async ({ playwright }) => {
		const server = await startLikeReadme({ PROTOCOL_HEADER: 'x-forwarded-proto', HOST_HEADER: 'x-forwarded-host' });
		const api = await playwright.request.newContext({ baseURL: server.url });
		try {
			const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'play.example' };
			const signup = (origin: string) => signUpPost(api, { ...forwarded, origin });
			expect((await signup('https://play.example')).status()).toBe(303);
			expect((await signup(server.url)).status()).toBe(403);
			expect((await signup('https://evil.example')).status()).toBe(403);
		} finally {
			await api.dispose();
			await server.stop();
		}
	});
});

/**
 * The README's way in: `npm ci && npm run build && npm start`, nothing set, open http://localhost:3000
 * and sign up. Every form of the site must work at http://localhost:PORT and http://127.0.0.1:PORT,
 * while a form post from any other origin is still refused, and the proxy settings (ORIGIN,
 * PROTOCOL_HEADER/HOST_HEADER) keep their meaning.
 */
import { test, expect, type APIRequestContext, type Browser } from '@playwright/test';
import { startLikeReadme, type StartedServer } from './start-server';
import { uniqueName, signUp, signOut, signIn, createSession, PASSWORD } from './helpers';

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

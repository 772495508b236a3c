/**
 * Brute-force protection of the sign-in form, on a server of its own (npm start) whose client
 * address comes from X-Forwarded-For (ADDRESS_HEADER), as behind a proxy: after a few wrong passwords
 * the account is locked for a while — even the right password waits, told plainly and with
 * Retry-After — and works once the lock is over; many failures from one address lock that address.
 */
import { test, expect, type APIRequestContext } from '@playwright/test';
import { startLikeReadme, type StartedServer } from './start-server';
import { uniqueName, signUp, signOut, PASSWORD } from './helpers';

let server: StartedServer;
test.beforeAll(async () => {
	server = await startLikeReadme({ ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '1' });
});
test.afterAll(async () => {
	await server.stop();
});

/** A sign-in form post without JavaScript from `address`: the status and Retry-After of the answer. */
async function postSignIn(
	api: APIRequestContext,
	name: string,
	password: string,
	address: string
): Promise<{ status: number; retryAfter: string | undefined }> {
	const res = await api.post('/signin', {
		form: { name, password },
		headers: { origin: server.url, accept: 'text/html', 'x-forwarded-for': address },
		maxRedirects: 0
	});
	return { status: res.status(), retryAfter: res.headers()['retry-after'] };
}

test('after repeated wrong passwords the right one waits (429, Retry-After, a clear message), then works', async ({
	browser,
	playwright
}) => {
	const address = '192.0.2.10';
	const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': address } });
	const page = await context.newPage();
	const api = await playwright.request.newContext({ baseURL: server.url });
	try {
		const name = uniqueName('locked');
		await signUp(page, name);
		await signOut(page);
		await page.goto('/signin');
		await page.getByLabel('Username').fill(name);
		await page.getByLabel('Password').fill('not the password');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');

		// Five more wrong passwords, from other addresses: the sixth failure locks the account itself.
		for (let i = 0; i < 5; i++) expect((await postSignIn(api, name, `guess-${i}`, `198.51.100.${i + 1}`)).status).toBe(400);

		// The right password, at once: refused without being checked, and told how long to wait.
		await page.getByLabel('Password').fill(PASSWORD);
		const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/signin');
		await page.getByRole('button', { name: 'Sign in' }).click();
		const retryAfter = Number((await answered).headers()['retry-after']);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		await expect(page.getByRole('alert')).toHaveText(/^Too many failed attempts\. Wait \d+ seconds? before trying again\.$/);
		await page.screenshot({ path: 'test-results/sign-in-throttle/locked.png' });
		await expect(page.getByText(`Signed in as ${name}`)).toHaveCount(0);
		// Without JavaScript: 429 with Retry-After.
		const plain = await postSignIn(api, name, PASSWORD, '198.51.100.99');
		expect(plain.status).toBe(429);
		expect(Number(plain.retryAfter)).toBeGreaterThanOrEqual(1);

		// Once the lock is over, the right password works.
		await page.waitForTimeout((retryAfter + 1) * 1000);
		await page.getByLabel('Password').fill(PASSWORD);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
	} finally {
		await api.dispose();
		await context.close();
	}
});

test('many failures from one address lock that address, for every name; other addresses are not affected', async ({ playwright }) => {
	const api = await playwright.request.newContext({ baseURL: server.url });
	const owner = await playwright.request.newContext({ baseURL: server.url });
	try {
		const name = uniqueName('victim');
		const created = await owner.post('/signup', {
			form: { name, password: PASSWORD },
			headers: { origin: server.url, accept: 'text/html', 'x-forwarded-for': '192.0.2.50' },
			maxRedirects: 0
		});
		expect(created.status()).toBe(303);
		const guesser = '192.0.2.66';
		for (let i = 0; i < 21; i++) expect((await postSignIn(api, uniqueName('guess'), 'wrong', guesser)).status).toBe(400);
		const fromGuesser = await postSignIn(api, name, PASSWORD, guesser);
		expect(fromGuesser.status).toBe(429);
		expect(fromGuesser.retryAfter).toBeDefined();
		expect((await postSignIn(api, name, PASSWORD, '192.0.2.67')).status).toBe(303);
	} finally {
		await api.dispose();
		await owner.dispose();
	}
});

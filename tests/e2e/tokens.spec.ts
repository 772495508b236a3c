import { test, expect } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp } from './helpers';

/** The body of an API error response. */
const ErrorBody = v.object({ message: v.string() });

test('a personal API token is shown once, works as a Bearer token, and stops working when revoked', async ({
	page,
	playwright,
	baseURL
}) => {
	const name = uniqueName('api');
	await signUp(page, name);
	await page.getByRole('link', { name: 'API tokens' }).click();
	await page.getByLabel('Name').fill('script');
	await page.getByLabel(/Expires after/).fill('30');
	await page.getByRole('button', { name: 'Create token' }).click();
	const token = (await page.getByTestId('new-token').textContent())?.trim() ?? '';
	expect(token).toMatch(/^kt_[A-Za-z0-9_-]{43}$/);

	// A fresh client without cookies: only the token identifies it.
	const api = await playwright.request.newContext({ baseURL });
	try {
		const me = await api.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
		expect(me.status()).toBe(200);
		expect(await me.json()).toMatchObject({ name, isAdmin: expect.any(Boolean) });

		const anonymous = await api.get('/api/v1/me');
		expect(anonymous.status()).toBe(401);

		// Reloading the page never shows the plaintext again.
		await page.reload();
		await expect(page.getByTestId('new-token')).toHaveCount(0);
		await expect(page.getByRole('cell', { name: 'script', exact: true })).toBeVisible();

		await page.getByRole('button', { name: 'Revoke script' }).click();
		await expect(page.getByText('No tokens yet.')).toBeVisible();
		const revoked = await api.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
		expect(revoked.status()).toBe(401);
		expect(v.parse(ErrorBody, await revoked.json()).message).toMatch(/not recognised/);
	} finally {
		await api.dispose();
	}
});

test('oversize API bodies get 413 with a message', async ({ playwright, baseURL }) => {
	const api = await playwright.request.newContext({ baseURL });
	try {
		const tooBig = 'x'.repeat(1024 * 1024 + 1);
		const response = await api.post('/api/v1/me', { data: tooBig, headers: { 'content-type': 'application/json' } });
		expect(response.status()).toBe(413);
		expect(v.parse(ErrorBody, await response.json()).message).toMatch(/larger than this server accepts/);
	} finally {
		await api.dispose();
	}
});

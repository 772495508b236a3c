/**
 * Sign-in and the language switch send the browser back where it was going — only ever to a page of
 * this site, whatever `redirectTo` holds (browsers drop TAB/CR/LF and read "\" as "/" in URLs).
 */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, signOut, PASSWORD } from './helpers';

const OFF_SITE = [
	'/%09/evil.example/x',
	'/%0A/evil.example',
	'/%0D%0A/evil.example',
	'/%5Cevil.example',
	'/%09%09//evil.example',
	'%2F%2Fevil.example'
];

test('a tampered redirectTo never leaves the site: signing in on the genuine page lands on the home page', async ({ page, baseURL }) => {
	const name = uniqueName('redir');
	await signUp(page, name);
	await signOut(page);
	const site = new URL(baseURL ?? '').origin;
	for (const target of OFF_SITE) {
		await page.goto(`/signin?redirectTo=${target}`);
		await page.getByLabel('Username').fill(name);
		await page.getByLabel('Password').fill(PASSWORD);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();
		expect(new URL(page.url()).origin, target).toBe(site);

		// Already signed in, the sign-in page redirects at once: the same rule, and never a 500.
		const response = await page.goto(`/signin?redirectTo=${target}`);
		expect(response?.status(), target).toBe(200);
		expect(new URL(page.url()).origin, target).toBe(site);
		await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();
		await signOut(page);
	}
	// A genuine target still works.
	await page.goto('/signin?redirectTo=%2Fsettings%2Ftokens%3Fx%3D1');
	await page.getByLabel('Username').fill(name);
	await page.getByLabel('Password').fill(PASSWORD);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { name: 'Personal API tokens' })).toBeVisible();
	expect(page.url()).toBe(`${site}/settings/tokens?x=1`);
});

test('the language switch goes back only to a path of this site', async ({ request, baseURL }) => {
	const origin = new URL(baseURL ?? '').origin;
	const cases: [string, string][] = [
		['/sessions?x=1', '/sessions?x=1'],
		['/\t/evil.example/x', '/'],
		['/\r\n/evil.example', '/'],
		['/\\evil.example', '/'],
		['https://evil.example/', '/']
	];
	for (const [redirectTo, location] of cases) {
		const res = await request.post('/language', {
			form: { language: 'en', redirectTo },
			headers: { origin, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(res.status(), JSON.stringify(redirectTo)).toBe(303);
		expect(res.headers()['location'], JSON.stringify(redirectTo)).toBe(location);
	}
});

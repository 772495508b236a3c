import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp, signIn, signOut, PASSWORD } from './helpers';

test('sign up, sign out, a wrong password is refused, sign in', async ({ page }) => {
	const name = uniqueName('alice');
	await signUp(page, name);
	await signOut(page);

	// Signed out: the home page is the introduction, private pages send you to sign in.
	await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
	await page.goto('/settings/tokens');
	await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fsettings%2Ftokens$/);

	await signIn(page, name, 'not the password');
	await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
	// An unknown user gets exactly the same answer.
	await signIn(page, uniqueName('nobody'), PASSWORD);
	await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');

	// After signing in, the redirect brings the user back where they were going.
	await page.goto('/settings/tokens');
	await page.getByLabel('Username').fill(name);
	await page.getByLabel('Password').fill(PASSWORD);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { name: 'Personal API tokens' })).toBeVisible();
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
});

test('sign-up explains invalid input field by field and keeps the username', async ({ page }) => {
	await page.goto('/signup');
	await page.getByLabel('Username').fill('no spaces allowed');
	await page.getByLabel('Password').fill('short');
	await page.getByRole('button', { name: 'Create account' }).click();
	await expect(page.getByText('A username may use only letters, digits, "_", "-" and ".".')).toBeVisible();
	await expect(page.getByText('A password needs at least 8 characters.')).toBeVisible();
	await expect(page.getByLabel('Username')).toHaveValue('no spaces allowed');
});

/**
 * Opens a form page with its scripts held back (as on a slow connection), fills it in, then lets the
 * scripts run: what was typed must survive the hydration and be what the hydrated page sends.
 */
async function fillBeforeHydration(page: Page, path: string, fields: [label: string, value: string][]): Promise<void> {
	let releaseScripts = () => {};
	const scriptsReleased = new Promise<void>((resolve) => (releaseScripts = resolve));
	const held: string[] = [];
	await page.route(/\/_app\/immutable\/.+\.js$/, async (route) => {
		held.push(route.request().url());
		await scriptsReleased;
		await route.continue();
	});
	// SvelteKit starts its router (which sets scrollRestoration to manual) right after it has hydrated the page.
	const hydrated = () => page.evaluate(() => history.scrollRestoration === 'manual');
	await page.goto(path, { waitUntil: 'commit' });
	for (const [label, value] of fields) await page.getByLabel(label).fill(value);
	await expect.poll(() => held.length).toBeGreaterThan(0);
	expect(await hydrated()).toBe(false);

	releaseScripts();
	await expect.poll(hydrated).toBe(true);
	for (const [label, value] of fields) await expect(page.getByLabel(label)).toHaveValue(value);
	await page.unroute(/\/_app\/immutable\/.+\.js$/);
	// Sent by the hydrated page (no reload: the marker survives).
	await page.evaluate(() => Reflect.set(window, '__beforeSubmit', true));
}

test('sign-up keeps what was typed before the page’s scripts ran, and creates the account with it', async ({ page }) => {
	const name = uniqueName('early');
	await fillBeforeHydration(page, '/signup', [
		['Username', name],
		['Password', PASSWORD]
	]);
	await page.getByRole('button', { name: 'Create account' }).click();
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
	expect(await page.evaluate((): unknown => Reflect.get(window, '__beforeSubmit'))).toBe(true);
});

test('sign-in keeps what was typed before the page’s scripts ran, and signs in with it', async ({ page }) => {
	const name = uniqueName('earlyin');
	await signUp(page, name);
	await signOut(page);
	await fillBeforeHydration(page, '/signin', [
		['Username', name],
		['Password', PASSWORD]
	]);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
	expect(await page.evaluate((): unknown => Reflect.get(window, '__beforeSubmit'))).toBe(true);
});

test('the session cookie is httpOnly and sameSite=lax', async ({ page, context }) => {
	await signUp(page, uniqueName('cookie'));
	const cookie = (await context.cookies()).find((c) => c.name === 'kantera_session');
	expect(cookie?.httpOnly).toBe(true);
	expect(cookie?.sameSite).toBe('Lax');
	expect(await page.evaluate(() => document.cookie)).not.toContain('kantera_session');
});

test('with no LLM provider configured, a signed-in user is told plainly what to set', async ({ page }) => {
	// The e2e server runs on the offline defaults: no OPENAI_API_KEY, no ANTHROPIC_API_KEY.
	await signUp(page, uniqueName('nollm'));
	const notice = page.getByRole('status').filter({ hasText: 'No LLM provider is configured.' });
	await expect(notice).toBeVisible();
	await expect(notice).toContainText('OPENAI_API_KEY');
	await signOut(page);
	await expect(page.getByText('No LLM provider is configured.')).toHaveCount(0);
});

import { test, expect } from '@playwright/test';
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

import { test, expect } from '@playwright/test';
import { uniqueName, signUp, signIn, signOut, createSession } from './helpers';

// Every page works as plain HTML forms: progressive enhancement is an extra, not a requirement.
test.use({ javaScriptEnabled: false });

test('the whole account and session flow works with JavaScript disabled', async ({ page }) => {
	const name = uniqueName('nojs');
	await signUp(page, name);
	await signOut(page);
	await signIn(page, name, 'wrong password!');
	await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
	// The server answers with the name filled in and never echoes the password.
	await expect(page.getByLabel('Username')).toHaveValue(name);
	await expect(page.getByLabel('Password')).toHaveValue('');
	await signIn(page, name);
	await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();

	await createSession(page, 'Plain HTML campaign');
	await page.goto('/');
	const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Plain HTML campaign', exact: true }) });
	await row.getByLabel('New title for Plain HTML campaign').fill('Renamed without JS');
	await row.getByRole('button', { name: 'Rename' }).click();
	await expect(page.getByRole('link', { name: 'Renamed without JS', exact: true })).toBeVisible();

	await page.getByRole('link', { name: 'Delete…' }).click();
	await page.getByRole('button', { name: 'Delete session' }).click();
	await expect(page.getByText('No sessions yet.')).toBeVisible();

	await page.goto('/settings/tokens');
	await page.getByLabel('Name').fill('no-js token');
	await page.getByRole('button', { name: 'Create token' }).click();
	await expect(page.getByTestId('new-token')).toHaveText(/^kt_/);
	await signOut(page);
});

/**
 * Forms refuse text with control characters (NUL…) with a field error, and nothing is created —
 * instead of storing the text cut short at the NUL. (The turn form: play-security.spec.ts.)
 */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, setValue } from './helpers';

test('sign-up, session title and token name forms answer a control character with a field error', async ({ page }) => {
	await page.goto('/signup');
	await setValue(page, 'Username', 'mal\u0000lory');
	await page.getByLabel('Password').fill('correct horse battery');
	await page.getByRole('button', { name: 'Create account' }).click();
	await expect(
		page.getByText('The username contains a control character (such as NUL); only tabs and line breaks are allowed.')
	).toBeVisible();

	await signUp(page, uniqueName('nul'));
	await page.goto('/');
	await setValue(page, 'Title', 'Harbour\u0000 (the GM must not know)');
	await page.getByRole('button', { name: 'Create' }).click();
	await expect(
		page.getByText('The title contains a control character (such as NUL); only tabs and line breaks are allowed.')
	).toBeVisible();
	await expect(page.getByRole('link', { name: /^Harbour/ })).toHaveCount(0);
	await page.screenshot({ path: 'test-results/control-characters/title.png' });

	await page.goto('/settings/tokens');
	await setValue(page, 'Name', 'laptop\u0007');
	await page.getByRole('button', { name: 'Create token' }).click();
	await expect(
		page.getByText('The token name contains a control character (such as NUL); only tabs and line breaks are allowed.')
	).toBeVisible();
	await page.screenshot({ path: 'test-results/control-characters/token-name.png', fullPage: true });
});

/** The play screen on a server with no LLM configured (the default e2e server): it says why nothing can be sent. */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';

test('without an LLM the input is disabled and says why', async ({ page }) => {
	await signUp(page, uniqueName('nollmplay'));
	const id = await createSession(page, 'No GM here');
	await page.goto(`/sessions/${id}`);
	await expect(page.getByRole('status').filter({ hasText: 'No LLM provider is configured.' })).toBeVisible();
	const input = page.getByLabel('What do you do?');
	await expect(input).toBeDisabled();
	await expect(input).toHaveAccessibleDescription(/no LLM provider configured/);
	await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
});

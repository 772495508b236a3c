/** The play screen as plain HTML: a turn is sent by the form, and the page reloads itself until the reply is in. */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';

test.use({ javaScriptEnabled: false });

test('without JavaScript a turn is sent, followed by reloads, and the whole reply is listed', async ({ page }) => {
	await signUp(page, uniqueName('nojsplay'));
	const id = await createSession(page, 'Plain HTML game');
	await page.goto(`/sessions/${id}`);
	await page.getByLabel('What do you do?').fill('I walk up to the gate. #gate');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
	// The page refreshes itself while the turn runs; the reply then stands in the transcript.
	const transcript = page.getByRole('region', { name: 'Story text' });
	await expect(transcript).toContainText('Halt! Who goes there?', { timeout: 30_000 });
	await expect(transcript).toContainText('Easy, Bram. It is only a traveller.');
	await expect(transcript).not.toContainText('@Bram');
	await page.screenshot({ path: 'test-results/play/09-no-javascript.png', fullPage: true });
});

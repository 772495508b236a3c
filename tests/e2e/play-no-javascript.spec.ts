/**
 * The play screen as plain HTML: the title card's Start is a link, the whole exchange reads in the
 * text window, a turn is sent by the form and the page reloads itself until the reply is in, the
 * drawers and the log open as `#targets` with their content rendered by the server, and a document
 * is edited through the page's form.
 */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';
import { CHOICES } from '../mock-llm/adv-play';

test.use({ javaScriptEnabled: false });

test('without JavaScript: title card, the whole prologue, drawers, log and a document edit work, a turn is sent and its whole reply listed', async ({
	page
}) => {
	await signUp(page, uniqueName('nojsplay'));
	const id = await createSession(page, 'Plain HTML game', /Vesca/);
	await expect(page.getByRole('heading', { name: 'Vesca of the Black Salt' })).toBeVisible();
	await page.getByRole('link', { name: 'Start' }).click();
	await expect(page.getByTestId('title-card')).toBeHidden();
	// Nobody clicks through without JavaScript: the whole prologue is in the window, the first
	// paragraph as usual and the rest after it (a noscript block, which Playwright's text matching
	// only reads from inside).
	const rest = page.getByTestId('rest-line');
	await expect(page.getByTestId('line-text')).toContainText('Vesca is a walled port of thieves');
	await expect(rest.last()).toHaveText('Sefa — Young thief of the Grey Hands.');

	// The drawers are rendered by the server and open as targets.
	await page.getByRole('link', { name: 'State', exact: true }).click();
	await expect(page.locator('#state')).toBeVisible();
	await expect(page.locator('#state')).toContainText('Silver marks');
	await page.locator('#state').getByRole('link', { name: 'Close' }).click();
	await expect(page.locator('#state')).toBeHidden();
	await page.getByRole('link', { name: 'Journal', exact: true }).click();
	await expect(page.locator('#journal')).toBeVisible();
	await page.locator('#journal').getByRole('link', { name: 'Close' }).click();
	await page.getByRole('link', { name: 'Log', exact: true }).click();
	await expect(page.locator('#log')).toContainText('Mirela — Keeper of the Crooked Lantern tavern.');

	// A document opens and is edited through the page.
	await page.goto(`/sessions/${id}#documents`);
	const docs = page.locator('#documents');
	await docs.getByRole('link', { name: 'PC Sheet' }).click();
	await expect(docs.getByRole('heading', { name: 'PC Sheet' })).toBeVisible();
	await docs.getByRole('link', { name: 'Edit' }).click();
	await docs.getByLabel(/^Text/).fill('# Tarn\n\nA sellsword who owes the Grey Hands.');
	await docs.getByRole('button', { name: 'Save' }).click();
	await expect(page).toHaveURL(new RegExp(`/sessions/${id}\\?doc=\\d+#documents$`));
	await expect(docs).toContainText('A sellsword who owes the Grey Hands.');

	await page.goto(`/sessions/${id}#story`);
	await page.getByLabel('What do you do?').fill('I walk up to the gate. #gate');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
	// The page refreshes itself while the turn runs; the reply then stands in the window.
	await expect(rest.filter({ hasText: 'Halt! Who goes there?' })).toHaveText('Bram: Halt! Who goes there?', { timeout: 30_000 });
	await expect(rest.last()).toHaveText('Ana: Easy, Bram. It is only a traveller.');
	await expect(page.getByText('@Bram')).toHaveCount(0);
	// The stage is the one the reply ends on (the reader has it all at once): Bram and Ana at the gate.
	await expect(page.locator('[data-slot="left"]')).toHaveAttribute('data-character', 'Bram');
	await expect(page.locator('[data-slot="right"]')).toHaveAttribute('data-character', 'Ana');
	await expect(page.getByTestId('place-name')).toHaveText('North Gate');
	await page.screenshot({ path: 'test-results/play/09-no-javascript.png', fullPage: true });

	// Choices are forms: shown and sent without JavaScript, above the window; "Write your own…" labels the line.
	await page.getByLabel('What do you do?').fill('I look at Bram. #choices');
	await page.getByRole('button', { name: 'Send' }).click();
	const choice = page.getByRole('button', { name: CHOICES[1] });
	await expect(choice).toBeVisible({ timeout: 30_000 });
	const [menu, window] = await Promise.all([page.locator('.choices').boundingBox(), page.getByTestId('text-window').boundingBox()]);
	expect(menu && window && menu.y + menu.height).toBeLessThanOrEqual(window?.y ?? 0);
	await page.screenshot({ path: 'test-results/play/10-no-javascript-choices.png' });
	await page.getByTestId('write-own').click();
	await expect(page.getByLabel('What do you do?')).toBeFocused();
	await choice.click();
	await expect(
		page
			.getByTestId('line-text')
			.or(rest)
			.filter({ hasText: `You said: ${CHOICES[1]}` })
	).toHaveCount(1, { timeout: 30_000 });
});

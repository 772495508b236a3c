/**
 * Steps the play-screen specs share: a story started in either language, the input box, reading a reply to its end,
 * a line and its reply, the settings layer.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';

export const turnInput = (page: Page) => page.locator('#turn-input');
export const input = (page: Page) => page.locator('textarea[name="text"]');

/** Advances the reader (Enter) until the input is back: as many lines as the screen holds, however late they arrive. */
export async function readToEnd(page: Page): Promise<void> {
	await expect(async () => {
		if (await turnInput(page).isVisible()) return;
		await page.keyboard.press('Enter');
		await expect(turnInput(page)).toBeVisible({ timeout: 500 });
		// A phone's window pages the prologue in many pages: give a loaded machine its time.
	}).toPass({ timeout: 60_000 });
}

/**
 * A new account and a new session of the sword-and-sorcery world titled `title`, the screen and the
 * story in `language`, text shown at once; read past the title card and the prologue.
 */
export async function startStory(page: Page, language: 'en' | 'ja', title: string): Promise<void> {
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	await signUp(page, uniqueName(`play${language}`));
	if (language === 'ja') {
		await page.getByLabel('Display language').selectOption('ja');
		await page.getByRole('button', { name: 'Change', exact: true }).click();
		await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	}
	await page.waitForLoadState('networkidle');
	await page.locator('#new-title').fill(title);
	await page.locator('#new-language').selectOption(language);
	await page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.keyboard.press('Enter');
	await readToEnd(page);
}

/** Sends a line and waits until the GM's reply (its first words) is on the stage, the turn is over and read. */
export async function say(page: Page, text: string, reply: string): Promise<void> {
	await input(page).fill(text);
	await input(page).press('Enter');
	await expect(page.getByTestId('text-window')).toContainText(reply, { timeout: 20_000 });
	// The stop button (the owner's: a player has none) is marked unavailable once the turn is over.
	await expect(page.locator('.vn form[action="?/cancel"] button:not([aria-disabled="true"])')).toHaveCount(0, { timeout: 20_000 });
	await readToEnd(page);
}

/**
 * A quick-menu item by its words: in the row, or under "⋯" (opened for it) where the row has no room for it, as on
 * a phone.
 */
export async function quickItem(page: Page, name: string | RegExp): Promise<Locator> {
	const inRow = page.locator('nav.quick > ul > li:not(.folded) > .q').filter({ hasText: name });
	if ((await inRow.count()) > 0) return inRow;
	const more = page.getByTestId('quick-more');
	if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
	return page.locator('#quick-more .q').filter({ hasText: name });
}

/** The settings layer (the quick menu's link), where the session's spend panel lives. */
export async function openSettings(page: Page, title: string) {
	await (await quickItem(page, /^(Settings|設定)$/)).click();
	const settings = page.getByRole('dialog', { name: title });
	await expect(settings).toBeVisible();
	return settings;
}

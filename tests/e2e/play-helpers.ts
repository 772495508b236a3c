/** The play screen's steps the play specs repeat: the input box, reading to it, a line and its reply, the settings layer. */
import { expect, type Page } from '@playwright/test';

export const input = (page: Page) => page.locator('textarea[name="text"]');

/** Enter until the reply has been read and the window asks for the player's line. */
export async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

/** Sends a line and waits until the GM's reply (its first words) is on the stage, the turn is over and read. */
export async function say(page: Page, text: string, reply: string): Promise<void> {
	await input(page).fill(text);
	await input(page).press('Enter');
	await expect(page.getByTestId('text-window')).toContainText(reply, { timeout: 20_000 });
	await expect(page.locator('.vn form[action="?/cancel"] button')).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
	await readToEnd(page);
}

/** The settings layer (the quick menu's link), where the session's spend panel lives. */
export async function openSettings(page: Page, title: string) {
	await page.getByTestId('text-window').locator('a[href="#settings"]').click();
	const settings = page.getByRole('dialog', { name: title });
	await expect(settings).toBeVisible();
	return settings;
}

/**
 * A load lands where the save was made (issue 24): saved on a line in the middle of a reply, after the
 * stage changed, the loaded session's window opens on that line with that stage — not on the
 * exchange's first line with the stage before it. In Chromium against the built app and the scripted
 * mock LLM (`#gate`: the North Gate at paragraph 0, Bram enters at 1, Ana at 2).
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp, sessionIdOf } from './helpers';

const SHOTS = 'test-results/play/saves';

const input = (page: Page) => page.locator('#turn-input');
const line = (page: Page) => page.getByTestId('line-text');

async function readToEnd(page: Page): Promise<void> {
	await expect(async () => {
		if (await input(page).isVisible()) return;
		await page.keyboard.press('Enter');
		await expect(input(page)).toBeVisible({ timeout: 500 });
	}).toPass({ timeout: 30_000 });
}

async function start(page: Page, language: 'en' | 'ja'): Promise<void> {
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	await signUp(page, uniqueName(`load${language}`));
	if (language === 'ja') {
		await page.getByLabel('Display language').selectOption('ja');
		await page.getByRole('button', { name: 'Change', exact: true }).click();
		await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	}
	await page.waitForLoadState('networkidle');
	await page.locator('#new-title').fill(language === 'ja' ? '北門' : 'North gate');
	await page.locator('#new-language').selectOption(language);
	await page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.keyboard.press('Enter');
	await readToEnd(page);
}

/** The window on Bram's line of `#gate`, with its stage: the North Gate, Bram on the left, Ana not yet there. */
async function onBramsLine(page: Page): Promise<void> {
	await expect(line(page)).toHaveText('Halt! Who goes there?', { timeout: 20_000 });
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(page.locator('.background[data-scene="North Gate"]')).toHaveCount(1);
	await expect(page.locator('[data-slot="left"][data-character="Bram"]')).toHaveCount(1);
	await expect(page.locator('[data-character="Ana"]')).toHaveCount(0);
}

for (const [language, device] of [
	['en', { name: 'desktop', width: 1280, height: 800 }],
	['ja', { name: 'phone', width: 390, height: 844 }]
] as const) {
	test(`a save made on a line in the middle of a reply loads on that line, with its stage (${language}, ${device.name})`, async ({
		page
	}) => {
		test.slow();
		await page.setViewportSize({ width: device.width, height: device.height });
		await start(page, language);
		await input(page).fill(language === 'ja' ? '門へ向かう。#gate' : 'To the gate. #gate');
		await input(page).press('Enter');
		await expect(line(page)).toHaveText('Fog hangs over the north gate.', { timeout: 20_000 });
		// The reply has committed (Undo is on) before the save.
		await expect(page.locator('nav.quick button[aria-keyshortcuts="U"]')).not.toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
		await page.keyboard.press('Enter');
		await onBramsLine(page);

		// Q.Save on Bram's line, then read on to the end (Ana comes on), then Q.Load.
		const quick = page.locator('nav.quick');
		await quick
			.locator('button')
			.filter({ hasText: language === 'ja' ? 'Qセーブ' : 'Q.Save' })
			.click();
		await expect(quick.getByRole('status')).toBeVisible();
		// Enter on the Q.Save button would press it again: back to the window to read on.
		await page.getByTestId('text-window').focus();
		await readToEnd(page);
		await expect(page.locator('[data-slot="right"][data-character="Ana"]')).toHaveCount(1);
		const original = sessionIdOf(page);
		await quick
			.locator('button')
			.filter({ hasText: language === 'ja' ? 'Qロード' : 'Q.Load' })
			.click();
		await expect(page).not.toHaveURL(new RegExp(original), { timeout: 20_000 });
		await onBramsLine(page);
		await page.screenshot({ path: `${SHOTS}/${device.name}-${language}-loaded-on-line.png` });
		// And it reads on from there.
		await page.keyboard.press('Enter');
		await expect(line(page)).toHaveText('Easy, Bram. It is only a traveller.');
	});
}

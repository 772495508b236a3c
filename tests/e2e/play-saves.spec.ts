/**
 * A load lands where the save was made (issue 24): saved on a line in the middle of a reply, after the
 * stage changed, the loaded session's window opens on that line with that stage — not on the
 * exchange's first line with the stage before it. In Chromium against the built app and the scripted
 * mock LLM (`#gate`: the North Gate at paragraph 0, Bram enters at 1, Ana at 2).
 */
import { test, expect, type Page } from '@playwright/test';
import { sessionIdOf } from './helpers';
import { quickItem, readToEnd, startStory, turnInput } from './play-helpers';

const SHOTS = 'test-results/play/saves';

const input = turnInput;
const line = (page: Page) => page.getByTestId('line-text');

/** A new story, and `#gate` played (North Gate, Bram, Ana) until its reply has committed. */
async function atTheGate(page: Page, language: 'en' | 'ja'): Promise<void> {
	await startStory(page, language, language === 'ja' ? '北門' : 'North gate');
	await input(page).fill(language === 'ja' ? '門へ向かう。#gate' : 'To the gate. #gate');
	await input(page).press('Enter');
	await expect(line(page)).toHaveText('Fog hangs over the north gate.', { timeout: 20_000 });
	await expect(page.locator('nav.quick button[aria-keyshortcuts="U"]')).not.toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
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
		await atTheGate(page, language);
		await page.keyboard.press('Enter');
		await onBramsLine(page);

		// Q.Save on Bram's line, then read on to the end (Ana comes on), then Q.Load.
		const quick = page.locator('nav.quick');
		await (await quickItem(page, language === 'ja' ? 'Qセーブ' : 'Q.Save')).click();
		await expect(quick.getByRole('status')).toBeVisible();
		// Enter on the Q.Save button would press it again: back to the window to read on.
		await page.getByTestId('text-window').focus();
		await readToEnd(page);
		await expect(page.locator('[data-slot="right"][data-character="Ana"]')).toHaveCount(1);
		const original = sessionIdOf(page);
		await (await quickItem(page, language === 'ja' ? 'Qロード' : 'Q.Load')).click();
		await expect(page).not.toHaveURL(new RegExp(original), { timeout: 20_000 });
		await onBramsLine(page);
		await page.screenshot({ path: `${SHOTS}/${device.name}-${language}-loaded-on-line.png` });
		// And it reads on from there.
		await page.keyboard.press('Enter');
		await expect(line(page)).toHaveText('Easy, Bram. It is only a traveller.');
	});
}

for (const [language, device] of [
	['en', { name: 'desktop', width: 1280, height: 800 }],
	['ja', { name: 'phone', width: 390, height: 844 }]
] as const) {
	test(`the save / load screen: a grid of thumbnails a page at a time, turned by keyboard (${language}, ${device.name})`, async ({
		page
	}) => {
		test.slow();
		await page.setViewportSize({ width: device.width, height: device.height });
		await atTheGate(page, language);
		await readToEnd(page);
		// Seven named slots: one more than a page holds.
		const id = sessionIdOf(page);
		for (let n = 1; n <= 7; n++)
			expect((await page.request.post(`/api/v1/sessions/${id}/saves`, { data: { name: `Slot ${n}` } })).status()).toBe(201);

		await (await quickItem(page, language === 'ja' ? /^セーブ$/ : /^Save$/)).click();
		const sheet = page.locator('[data-overlay="saves"]');
		const slots = sheet.getByTestId('save-slot');
		await expect(slots).toHaveCount(6);
		// Newest first, each with its thumbnail's place, the date and the turn.
		await expect(slots.first().locator('strong')).toHaveText('Slot 7');
		await expect(slots.first().locator('.meta')).toContainText(language === 'ja' ? '1ターン目' : 'Turn 1');
		await expect(slots.first().locator('.meta')).toContainText('North Gate');
		const pager = sheet.getByRole('navigation');
		await expect(pager.getByRole('button', { name: language === 'ja' ? '2ページ中1ページ目' : 'Page 1 of 2' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		await page.screenshot({ path: `${SHOTS}/${device.name}-${language}-save-screen-1.png` });

		// By keyboard: → turns to the second page (one slot, five free), ← back.
		await pager.getByRole('button', { name: language === 'ja' ? '2ページ中1ページ目' : 'Page 1 of 2' }).focus();
		await page.keyboard.press('ArrowRight');
		await expect(slots).toHaveCount(1);
		await expect(slots.first().locator('strong')).toHaveText('Slot 1');
		await expect(sheet.getByTestId('save-slot-free')).toHaveCount(5);
		await page.screenshot({ path: `${SHOTS}/${device.name}-${language}-save-screen-2.png` });
		await page.keyboard.press('ArrowLeft');
		await expect(slots).toHaveCount(6);
		// Tab reaches a slot's Load, and Enter loads it as a new session.
		await slots
			.first()
			.getByRole('button', { name: language === 'ja' ? 'ロード' : 'Load' })
			.focus();
		await page.keyboard.press('Enter');
		await expect(page).not.toHaveURL(new RegExp(id), { timeout: 20_000 });
		await expect(page).toHaveTitle(/Slot 7/);
	});
}

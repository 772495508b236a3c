/**
 * The play screen on a phone held upright (390×844) beside a desktop (1280×800), in both languages: the quick
 * menu is one row (what does not fit folds under "⋯", reached by keyboard), so the text window keeps its lines
 * for text; three long choices rest on the window without covering a face or going under it. Measured in the
 * page (boxes, line heights: ratios, never times). Screenshots under test-results/play/phone.
 */
import { test, expect, type Page } from '@playwright/test';
import { startStory, turnInput } from './play-helpers';
import { CROSSROADS_CHOICES, CROSSROADS_REPLY } from '../mock-llm/adv-play';

const SHOTS = 'test-results/play/phone';
const DEVICES = [
	{ name: 'desktop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 }
] as const;
const LABELS = {
	en: ['Undo', 'Reroll', 'Edit', 'Log', 'Auto', 'Skip', 'Save', 'Load', 'Q.Save', 'Q.Load', 'Settings', 'Hide', 'Full screen'],
	ja: [
		'取り消す',
		'引き直す',
		'書き直す',
		'ログ',
		'オート',
		'スキップ',
		'セーブ',
		'ロード',
		'Qセーブ',
		'Qロード',
		'設定',
		'非表示',
		'全画面'
	]
};
const MORE = { en: 'More', ja: 'その他' };

interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(page: Page, selector: string): Promise<Box> {
	const box = await page.locator(selector).first().boundingBox();
	if (!box) throw new Error(`${selector} is not on screen`);
	return box;
}

/** The quick menu's row against one of its items, and how many whole lines of text the window's page holds. */
function measure(page: Page) {
	return page.evaluate(() => {
		const row = document.querySelector('.quick > ul');
		const item = document.querySelector('.quick > ul > li:not(.folded) .q');
		const body = document.querySelector('[data-testid="text-window"] .body');
		const text = body?.querySelector('.text');
		if (!row || !item || !body || !text) throw new Error('no quick menu or text window');
		const lineHeight = parseFloat(getComputedStyle(text).lineHeight);
		return {
			rowHeight: row.getBoundingClientRect().height,
			itemHeight: item.getBoundingClientRect().height,
			lines: Math.floor(body.clientHeight / lineHeight)
		};
	});
}

for (const language of ['en', 'ja'] as const) {
	test(`the quick menu is one row and a phone's window keeps its lines (${language})`, async ({ page }) => {
		test.slow();
		await page.setViewportSize(DEVICES[0]);
		await startStory(page, language, language === 'ja' ? '港町' : 'Harbour town');
		const desktop = await measure(page);
		await page.setViewportSize(DEVICES[1]);
		await expect.poll(async () => (await measure(page)).rowHeight).toBeLessThan(desktop.itemHeight * 1.5);
		const phone = await measure(page);
		for (const m of [desktop, phone]) expect(m.rowHeight).toBeLessThan(m.itemHeight * 1.5);
		expect(phone.lines).toBeGreaterThanOrEqual(3);
		// A phone's page holds as many lines as a desktop's, or more (its window is taller in its own text size).
		expect(phone.lines / desktop.lines).toBeGreaterThanOrEqual(1);
		await page.screenshot({ path: `${SHOTS}/phone-${language}-row.png` });

		// Every item is in the row or under "⋯", which the keyboard opens, walks and closes.
		const quick = page.getByRole('navigation', { name: language === 'ja' ? 'クイックメニュー' : 'Quick menu' });
		const more = quick.getByRole('button', { name: MORE[language], exact: true });
		await more.focus();
		await page.keyboard.press('Enter');
		await expect(more).toHaveAttribute('aria-expanded', 'true');
		const list = page.locator('#quick-more');
		await expect(list.locator('a, button').first()).toBeFocused();
		await page.screenshot({ path: `${SHOTS}/phone-${language}-more.png` });
		const inRow = await page.locator('.quick > ul > li:not(.folded):not(.more-item) > .q').allInnerTexts();
		const folded = await list.locator('.q').allInnerTexts();
		expect(folded.length).toBeGreaterThan(0);
		const norm = (names: string[]) => names.map((n) => n.trim().toLowerCase()).sort();
		expect(norm([...inRow, ...folded])).toEqual(norm(LABELS[language]));
		await page.keyboard.press('ArrowDown');
		await expect(list.locator('a, button').nth(1)).toBeFocused();
		await page.keyboard.press('Escape');
		await expect(list).toBeHidden();
		await expect(more).toBeFocused();
		await expect(page.getByRole('dialog')).toHaveCount(0);
		// A pick in the list does what the row's item would: Settings opens.
		await page.keyboard.press('Enter');
		await list.getByRole('link', { name: LABELS[language][10] }).focus();
		await page.keyboard.press('Enter');
		await expect(page.getByRole('dialog', { name: language === 'ja' ? '設定' : 'Settings' })).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(page.getByRole('dialog')).toHaveCount(0);
	});

	for (const device of DEVICES) {
		test(`three long choices rest on the window, clear of every face (${language}, ${device.name})`, async ({ page }) => {
			test.slow();
			await page.setViewportSize(device);
			await startStory(page, language, language === 'ja' ? '十字路' : 'Crossroads');
			await turnInput(page).fill(language === 'ja' ? '十字路で立ち止まる。#crossroads' : 'I stop at the crossroads. #crossroads');
			await turnInput(page).press('Enter');
			await expect(page.getByTestId('text-window')).toContainText(CROSSROADS_REPLY, { timeout: 20_000 });
			await expect(page.locator('.choices .choice')).toHaveText([...CROSSROADS_CHOICES[language]], { timeout: 20_000 });
			await expect(page.locator('.slot[data-character] .sprite')).toHaveCount(3);
			// Settled (the figures step back with a short transition): every face clear of every choice and of the hint.
			await expect(async () => {
				const [menu, window, frame] = await Promise.all([
					boxOf(page, '.choices'),
					boxOf(page, '[data-testid="text-window"]'),
					boxOf(page, '.frame')
				]);
				expect(menu.y + menu.height).toBeLessThanOrEqual(window.y);
				expect(menu.y).toBeGreaterThanOrEqual(frame.y);
				const options = await Promise.all(
					(await page.locator('.choices .choice, [data-testid="write-own"]').all()).map(async (l) => l.boundingBox())
				);
				// The drawn figure's head: the middle third across, 5–20 % down its height.
				const faces = (await Promise.all((await page.locator('.slot[data-character] .sprite').all()).map((l) => l.boundingBox()))).map(
					(b) => b && { x: b.x + b.width * 0.35, y: b.y + b.height * 0.05, width: b.width * 0.3, height: b.height * 0.15 }
				);
				expect(options.length).toBe(4);
				for (const face of faces) for (const option of options) expect(face && option && overlaps(face, option)).toBe(false);
			}).toPass({ timeout: 5_000 });
			await page.screenshot({ path: `${SHOTS}/${device.name}-${language}-choices.png` });
			// Once chosen, the figures stand as before.
			await page.locator('.choices .choice').first().click();
			await expect(page.locator('.vn[data-choosing]')).toHaveCount(0, { timeout: 20_000 });
		});
	}
}

/**
 * The play screen as a visual novel, keyboard first: the quick menu and the usual keys (L log, A auto,
 * Ctrl skip, H hide, F full screen, Esc menu, ? help), the reader's settings, the record drawers (the
 * state as a readable sheet), the layout (16:9 letterboxed on a desktop, the full height of a phone),
 * and a screenshot of every screen in both languages and both sizes for a person to look at.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';
import { CHOICES, CHOICES_REPLY, PAGES_REPLY } from '../mock-llm/adv-play';
import { quickItem } from './play-helpers';

const SHOTS = 'test-results/play/screens';

const textWindow = (page: Page) => page.getByTestId('text-window');
const input = (page: Page) => page.locator('#turn-input');
const turnIdle = (page: Page) =>
	expect(page.locator('form[action="?/cancel"] button')).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });

async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

async function say(page: Page, text: string): Promise<void> {
	await input(page).fill(text);
	await input(page).press('Enter');
}

async function boxOf(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
	const box = await page.locator(selector).first().boundingBox();
	if (!box) throw new Error(`${selector} is not on screen`);
	return box;
}

/** The text window's height: one, whatever it holds (a page of text, the input, the turn's status). */
const windowHeight = async (page: Page) => Math.round((await boxOf(page, '[data-testid="text-window"]')).height);

test('the quick menu and the usual keys: log, auto, skip, hide, help, menu, full screen; settings change the window', async ({ page }) => {
	await signUp(page, uniqueName('keys'));
	await createSession(page, 'Keys', /Vesca/);
	await page.keyboard.press('Enter');
	const quick = page.getByRole('navigation', { name: 'Quick menu' });
	for (const name of ['Log', 'Auto', 'Skip', 'Settings', 'Hide', 'Full screen'])
		await expect(quick.getByRole(name === 'Log' || name === 'Settings' ? 'link' : 'button', { name, exact: true })).toBeVisible();
	// Save and load (the slot sheet and the quick slot) are on the menu too (see play-timetravel.spec.ts).
	for (const name of ['Save', 'Load', 'Q.Save', 'Q.Load']) await expect(quick.getByRole('button', { name, exact: true })).toBeVisible();

	// Ctrl held races through the prologue to its last paragraph.
	await page.keyboard.down('Control');
	await expect(input(page)).toBeVisible({ timeout: 10_000 });
	await page.keyboard.up('Control');
	await expect(page.getByTestId('line-text')).toHaveText('Sefa — Young thief of the Grey Hands.');

	// The window opens where the reader was; read text is not skipped by itself.
	await page.reload();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('line-text')).toHaveText('Sefa — Young thief of the Grey Hands.');

	// A: auto mode, shown on the menu.
	await textWindow(page).focus();
	await page.keyboard.press('a');
	await expect(quick.getByRole('button', { name: 'Auto' })).toHaveAttribute('aria-pressed', 'true');
	await page.keyboard.press('a');
	await expect(quick.getByRole('button', { name: 'Auto' })).toHaveAttribute('aria-pressed', 'false');

	// L: the log, as a dialog over the stage; Esc closes it and the keyboard is back on the window.
	await page.keyboard.press('l');
	await expect(page.getByRole('dialog', { name: 'Backlog' })).toBeVisible();
	await expect(page.getByRole('dialog', { name: 'Backlog' }).getByRole('option').first()).toContainText('Vesca is a walled port');
	await page.keyboard.press('Escape');
	await expect(page.getByRole('dialog')).toHaveCount(0);
	await expect(textWindow(page)).toBeFocused();

	// H hides the window to see the picture; any key brings it back.
	await page.keyboard.press('h');
	await expect(textWindow(page)).toBeHidden();
	await page.keyboard.press('x');
	await expect(textWindow(page)).toBeVisible();

	// ?: every key, listed.
	await page.keyboard.press('?');
	const help = page.getByRole('dialog', { name: 'Keys and controls' });
	for (const row of [
		'Show the whole page, then the next page or paragraph',
		'Skip on or off: text you have read goes by, up to the first line you have not',
		'Undo: take your last turn back',
		'Hold to race through the text',
		'Auto mode on or off',
		'Log: every line so far',
		'Hide the text window to see the picture',
		'Full screen on or off',
		'Menu; closes whatever is open'
	])
		await expect(help).toContainText(row);
	await page.keyboard.press('Escape');

	// Esc: the menu, with every layer and the way back to the sessions.
	await page.keyboard.press('Escape');
	const menu = page.getByRole('dialog', { name: 'Menu' });
	await expect(menu.getByRole('link', { name: 'All sessions' })).toBeVisible();
	await menu.getByRole('link', { name: 'Settings' }).click();
	const settings = page.getByRole('dialog', { name: 'Settings' });
	await settings.getByLabel('Text size').selectOption('large');
	await settings.getByLabel('Window opacity').fill('4');
	await settings.getByLabel('Motion').selectOption('reduced');
	const vn = page.locator('.vn');
	await expect(vn).toHaveAttribute('data-text-size', 'large');
	await expect(vn).toHaveAttribute('data-window-opacity', '100');
	await expect(vn).toHaveAttribute('data-motion', 'reduced');
	await page.keyboard.press('Escape');
	// Kept in this browser.
	await page.reload();
	await expect(vn).toHaveAttribute('data-text-size', 'large');

	// F: full screen (where the browser allows it).
	await page.keyboard.press('f');
	await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
	// The item says so (in the row, or under "⋯" if the full screen's frame is narrower than the row).
	await expect(page.locator('.quick li[data-item="fullscreen"] > .q')).toHaveText('Window');
	await page.keyboard.press('f');
	await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(false);
});

test('the state drawer reads as a sheet, in the story’s words; journal and documents open as drawers', async ({ page }) => {
	await signUp(page, uniqueName('sheet'));
	await createSession(page, 'Sheet', /Vesca/);
	await page.keyboard.press('Escape');
	await page.getByRole('navigation', { name: 'Records and menu' }).getByRole('link', { name: 'State' }).click();
	const drawer = page.getByRole('dialog', { name: 'State' });
	const sheet = drawer.getByTestId('state-sheet');
	await expect(sheet).toContainText('Location');
	await expect(sheet).toContainText('The Crooked Lantern, Vesca');
	await expect(sheet).toContainText('Silver marks');
	await expect(sheet).toContainText('The Grey Hands');
	await expect(sheet.locator('meter')).toHaveAttribute('value', '10');
	for (const raw of ['hpMax', 'greyHands', '_labels', '{']) await expect(sheet).not.toContainText(raw);
	await page.keyboard.press('Escape');
	await page.getByRole('navigation', { name: 'Records and menu' }).getByRole('link', { name: 'Documents' }).click();
	const docs = page.getByRole('dialog', { name: 'Documents' });
	await docs.getByRole('link', { name: 'Premise' }).click();
	await expect(docs.getByRole('heading', { name: 'Premise' })).toBeFocused();
});

test('desktop: the stage is 16:9 and letterboxed; phone: it takes the full height, with no sideways scroll', async ({ page }) => {
	await signUp(page, uniqueName('layout'));
	await createSession(page, 'Layout', /Vesca/);
	const frame = page.locator('.frame');
	await page.setViewportSize({ width: 1366, height: 900 });
	let box = await frame.boundingBox();
	expect(box && Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.01);
	expect(box && Math.round(box.width)).toBe(1366);
	await page.setViewportSize({ width: 1920, height: 900 });
	box = await frame.boundingBox();
	expect(box && Math.round(box.height)).toBe(900);
	expect(box && box.x).toBeGreaterThan(100);
	await page.setViewportSize({ width: 375, height: 740 });
	box = await frame.boundingBox();
	expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([375, 740]);
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
	expect(overflow).toBeLessThanOrEqual(0);
});

for (const language of ['en', 'ja'] as const) {
	for (const device of [
		{ name: 'desktop', width: 1366, height: 768 },
		{ name: 'phone', width: 390, height: 844 }
	]) {
		test(`screens (${language}, ${device.name}): title, prologue, a streamed reply with a speaker, choices, log, state, settings, help, menu`, async ({
			page
		}) => {
			test.slow();
			await page.setViewportSize({ width: device.width, height: device.height });
			await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
			await signUp(page, uniqueName(`shots${language}`));
			if (language === 'ja') {
				await page.getByLabel('Display language').selectOption('ja');
				await page.getByRole('button', { name: 'Change', exact: true }).click();
				await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
			}
			await page.waitForLoadState('networkidle');
			await page.locator('#new-title').fill(language === 'ja' ? '霧の夜' : 'Night of fog');
			await page.locator('#new-language').selectOption(language);
			await page.locator('input[name="world"][value="sword-and-sorcery"]').check();
			await page.locator('form[action="?/create"] button[type="submit"]').click();
			const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${device.name}-${language}-${name}.png` });
			await expect(page.getByTestId('title-card')).toBeVisible();
			await shot('01-title');
			await page.keyboard.press('Enter');
			await shot('02-prologue');
			await readToEnd(page);
			await shot('03-prologue-cast');
			await say(page, language === 'ja' ? '門へ向かう。#gate' : 'To the gate. #gate');
			await expect(page.getByTestId('line-text')).toHaveText('Fog hangs over the north gate.', { timeout: 15_000 });
			await turnIdle(page);
			await page.keyboard.press('Enter');
			await expect(page.getByTestId('speaker')).toHaveText('Bram');
			await shot('04-speaker');
			const height = await windowHeight(page);
			await readToEnd(page);
			await say(page, language === 'ja' ? 'ブラムを見る。#choices' : 'I look at Bram. #choices');
			await expect(page.getByTestId('line-text')).toHaveText(CHOICES_REPLY, { timeout: 15_000 });
			await turnIdle(page);
			await expect(page.locator('.choices .choice')).toHaveText(CHOICES);
			await shot('05-choices');
			// The choices sit in the free space above the window, inside the stage, never under the window;
			// the window, now with the input, keeps its height.
			const [menu, window, frame] = await Promise.all([
				boxOf(page, '.choices'),
				boxOf(page, '[data-testid="text-window"]'),
				boxOf(page, '.frame')
			]);
			expect(menu.y + menu.height).toBeLessThanOrEqual(window.y);
			expect(menu.y).toBeGreaterThanOrEqual(frame.y);
			expect(await windowHeight(page)).toBe(height);
			// The quick menu's row is in sight within the window, never past its edge (what does not fit is under "⋯",
			// play-phone.spec.ts).
			const items = await page
				.locator('.quick > ul > li:not(.folded) > .q')
				.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
			expect(items.length).toBeGreaterThan(device.name === 'phone' ? 3 : 10);
			for (const item of items) {
				expect(item.left).toBeGreaterThanOrEqual(window.x);
				expect(item.right).toBeLessThanOrEqual(window.x + window.width);
				expect(item.bottom).toBeLessThanOrEqual(window.y + window.height);
			}
			// "Write your own…" takes the keyboard to the window's line.
			await page.getByTestId('write-own').click();
			await expect(input(page)).toBeFocused();

			// A paragraph longer than the window: a page a click, ▼ on each page but the last, nothing lost or repeated.
			await say(page, language === 'ja' ? '長い話。#pages' : 'A long story. #pages');
			await expect(page.getByTestId('line-text')).toContainText('Lantern 1 ', { timeout: 15_000 });
			await turnIdle(page);
			await expect(page.getByTestId('more')).toBeAttached();
			await shot('05b-page');
			const pages: string[] = [];
			for (let i = 0; i < 20 && (await page.getByTestId('more').count()) > 0; i++) {
				pages.push((await page.getByTestId('line-text').textContent()) ?? '');
				expect(await windowHeight(page)).toBe(height);
				await textWindow(page).click({ position: { x: 20, y: 30 } });
			}
			pages.push((await page.getByTestId('line-text').textContent()) ?? '');
			expect(pages.length).toBeGreaterThan(1);
			expect(pages.join('')).toBe(PAGES_REPLY);
			await expect(input(page)).toBeVisible();
			await page.keyboard.press('l');
			await shot('06-log');
			await page.keyboard.press('Escape');
			await page.locator('.hud a[href="#state"]').click();
			await shot('07-state');
			// Each headline's text (a long date on a phone) wraps in its own column, never back under its label.
			const headline = page.getByTestId('state-sheet').locator('.headline .entry');
			await expect(headline.first()).toBeVisible();
			for (const entry of await headline.all()) {
				const [label, text] = await Promise.all([entry.locator('.k').boundingBox(), entry.locator('.v').boundingBox()]);
				expect(label && text && text.x >= label.x + label.width).toBe(true);
			}
			await page.keyboard.press('Escape');
			await (await quickItem(page, language === 'ja' ? '設定' : 'Settings')).click();
			await shot('08-settings');
			await page.keyboard.press('Escape');
			await page.keyboard.press('?');
			await shot('09-help');
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
			await shot('10-menu');
			await page.keyboard.press('Escape');
			await page.keyboard.press('h');
			await shot('11-hidden');
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
			expect(overflow).toBeLessThanOrEqual(0);
		});
	}
}

// Skip (S) after a reload with the place forgotten. It failed about one run in two on stop 29's main: the
// Enter after the reload came before the page had hydrated and was lost, so the title card stayed open
// (the first line already in the page beneath it) and S, which does nothing on the title card, left the
// window on the first line. The scripts are held back here, so the race is lost every time unless the test
// waits for the hydrated screen (`data-hydrated`) before it presses a key.
const HYDRATION_DELAY_MS = 1_000;

test('with the place forgotten the window opens on the first line, and Skip (S) goes by what was read', async ({ page }) => {
	await signUp(page, uniqueName('skip'));
	await createSession(page, 'Skip', /Vesca/);
	await expect(page.locator('.vn[data-hydrated="true"]')).toBeAttached();
	await page.keyboard.press('Enter');
	const quick = page.getByRole('navigation', { name: 'Quick menu' });
	await page.keyboard.down('Control');
	await expect(input(page)).toBeVisible({ timeout: 10_000 });
	await page.keyboard.up('Control');
	await page.evaluate(() => {
		for (const key of Object.keys(localStorage)) if (key.startsWith('kantera.at.')) localStorage.removeItem(key);
	});
	await page.route('**/_app/immutable/entry/**', async (route) => {
		await new Promise((resolve) => setTimeout(resolve, HYDRATION_DELAY_MS));
		await route.continue();
	});
	await page.reload();
	await expect(page.locator('.vn[data-hydrated="true"]')).toBeAttached();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('title-card')).toBeHidden();
	await expect(page.getByTestId('line-text')).toContainText('Vesca is a walled port');
	// Skip is offered once the page knows what this device has read (its marks load when the screen mounts).
	await expect(quick.getByRole('button', { name: 'Skip' })).not.toHaveAttribute('aria-disabled', 'true');
	await textWindow(page).focus();
	await page.keyboard.press('s');
	await expect(page.getByTestId('line-text')).toHaveText('Sefa — Young thief of the Grey Hands.');
	// Skip stops by itself at the end of what was read.
	await expect(quick.getByRole('button', { name: 'Skip' })).toHaveAttribute('aria-pressed', 'false');
});

// Keys pressed before the page runs are kept (src/app.html) and played once it does: Enter then Space on the title
// card, sent while the scripts are held back, start the story and read on, on a desktop and on a phone.
for (const device of [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 }
]) {
	test(`keys pressed before the page runs are not lost (${device.width}×${device.height})`, async ({ page }) => {
		await page.setViewportSize(device);
		await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
		await signUp(page, uniqueName('early'));
		await createSession(page, 'Early keys', /Vesca/);
		await expect(page.locator('.vn[data-hydrated="true"]')).toBeAttached();
		await page.route('**/_app/immutable/entry/**', async (route) => {
			await new Promise((resolve) => setTimeout(resolve, HYDRATION_DELAY_MS));
			await route.continue();
		});
		await page.reload({ waitUntil: 'commit' });
		await expect(page.getByTestId('title-card')).toBeVisible();
		await expect(page.locator('.vn[data-hydrated="true"]')).toHaveCount(0);
		await page.keyboard.press('Enter');
		await page.keyboard.press(' ');
		await expect(page.locator('.vn[data-hydrated="true"]')).toBeAttached();
		await expect(page.getByTestId('title-card')).toBeHidden();
		// Enter started the story on its first page, Space read on past it.
		await expect(page.getByTestId('line-text')).not.toHaveText('');
		await expect(page.getByTestId('line-text')).not.toContainText('Vesca is a walled port');
	});
}

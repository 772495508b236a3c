/**
 * Play together, the turn rules on screen (two browsers, mock LLM): in free order a player's line sent while the
 * GM writes shows as queued to everyone, its sender takes it back and sends again, and the next turn answers it;
 * the owner's tools (undo, saves, stop) are not offered to a player; the spend panel says who pays.
 * Screenshots go to test-results/together-rules/ to be looked at (English desktop host, Japanese phone player).
 */
import { test, expect, type Browser } from '@playwright/test';
import { signUp, uniqueName } from './helpers';
import { input, openSettings, readToEnd } from './play-helpers';

const SHOTS = 'test-results/together-rules';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function player(browser: Browser, prefix: string, language: 'en' | 'ja', viewport: { width: number; height: number }) {
	const context = await browser.newContext({ viewport });
	const page = await context.newPage();
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	await signUp(page, uniqueName(prefix));
	const url = new URL(page.url());
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	return { page, close: () => context.close() };
}

test('free order queues a player’s line while the GM writes; the owner’s tools stay the owner’s', async ({ browser }) => {
	test.setTimeout(240_000);
	const host = await player(browser, 'rhost', 'en', DESKTOP);
	const mira = await player(browser, 'rmira', 'ja', PHONE);

	await host.page.goto('/', { waitUntil: 'networkidle' });
	await host.page.locator('#new-title').fill('Queue at the gate');
	await host.page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await host.page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(host.page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	await readToEnd(host.page);
	let settings = await openSettings(host.page, 'Settings');
	await settings.getByRole('button', { name: 'Make an invitation link' }).click();
	const link = await settings.getByRole('textbox', { name: 'Make an invitation link' }).inputValue();
	await host.page.keyboard.press('Escape');

	await mira.page.goto(link, { waitUntil: 'networkidle' });
	await mira.page.getByLabel('キャラクターの名前').fill('Mira');
	await mira.page.getByRole('button', { name: '席につく' }).click();
	await readToEnd(mira.page);

	// The player is offered neither undo nor saves nor the stop button; the host is.
	const quick = (p: typeof host.page) => p.getByRole('navigation', { name: /Quick menu|クイックメニュー/ });
	await expect(quick(host.page).getByRole('button', { name: 'Save', exact: true })).toBeVisible();
	await expect(quick(mira.page).getByRole('button')).not.toHaveCount(0);
	await expect(quick(mira.page).getByRole('button', { name: /セーブ|Save/ })).toHaveCount(0);
	await expect(quick(mira.page).getByRole('button', { name: /^(取り消す|Undo)$/ })).toHaveCount(0);

	// The host's line streams slowly; Mira's line meanwhile waits, queued, for everyone to see.
	await input(host.page).fill('I wait in the fog. #drawn');
	await input(host.page).press('Enter');
	await expect(host.page.locator('.vn form[action="?/cancel"] button')).not.toHaveAttribute('aria-disabled', 'true');
	await expect(mira.page.locator('.vn form[action="?/cancel"]')).toHaveCount(0);
	await input(mira.page).fill('ランタンを掲げる。');
	await input(mira.page).press('Enter');
	await expect(host.page.getByTestId('queued-line')).toContainText('Mira: ランタンを掲げる。');
	await expect(mira.page.getByTestId('queued-line')).toContainText('Mira: ランタンを掲げる。');
	await expect(host.page.getByTestId('queued-line').getByRole('button')).toHaveCount(0);
	await host.page.screenshot({ path: `${SHOTS}/queued.en.desktop.png` });
	await mira.page.screenshot({ path: `${SHOTS}/queued.ja.phone.png` });

	// Mira takes it back, then sends another, which the next turn answers.
	await mira.page.getByTestId('queued-line').getByRole('button', { name: '取り下げる' }).click();
	await expect(host.page.getByTestId('queued-line')).toHaveCount(0);
	await input(mira.page).fill('やはり剣を抜く。');
	await input(mira.page).press('Enter');
	await expect(host.page.getByTestId('queued-line')).toContainText('Mira: やはり剣を抜く。');
	await expect(host.page.getByTestId('queued-line')).toHaveCount(0, { timeout: 60_000 });
	await expect(host.page.getByTestId('text-window')).toContainText('Mira: やはり剣を抜く。', { timeout: 60_000 });

	// Who pays: said in the spend panel, in each reader's language.
	settings = await openSettings(mira.page, '設定');
	await expect(settings.getByTestId('spend-shared')).toContainText('ホストに計上');
	await settings.getByTestId('spend-shared').scrollIntoViewIfNeeded();
	await mira.page.screenshot({ path: `${SHOTS}/spend.ja.phone.png` });
	await mira.page.setViewportSize(DESKTOP);
	await mira.page.screenshot({ path: `${SHOTS}/spend.ja.desktop.png` });
	settings = await openSettings(host.page, 'Settings');
	await expect(settings.getByTestId('spend-shared')).toContainText('charged to you');
	await host.page.setViewportSize(PHONE);
	await settings.getByTestId('spend-shared').scrollIntoViewIfNeeded();
	await host.page.screenshot({ path: `${SHOTS}/spend.en.phone.png` });

	await host.close();
	await mira.close();
});

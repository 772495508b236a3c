/**
 * Swipes on the play screen, in Chromium against the built app and the scripted mock LLM (`#swipe`
 * goes somewhere else each time the same line is answered): another reply with → (the one on screen
 * kept), back with ←, forward again without asking the GM twice, and the State drawer showing each
 * reply's own place after every switch; in English and Japanese by keyboard on a desktop, and with a
 * finger on a phone. Screenshots for a person to look at.
 */
import { test, expect, type Page } from '@playwright/test';
import { readToEnd, startStory, turnInput } from './play-helpers';
import { SWIPE_PLACES, swipeReply } from '../mock-llm/adv-play';

const SHOTS = 'test-results/play/swipes';
const [FIRST, SECOND] = SWIPE_PLACES;

const input = turnInput;
const position = (page: Page) => page.getByTestId('swipe-position');

/** The replies are read and the reply `at` of `of` is on screen, read to its end, nothing running. */
async function showing(page: Page, at: number, of: number, place: string): Promise<void> {
	await expect(position(page)).toHaveText(`${at}/${of}`, { timeout: 30_000 });
	await expect(page.getByTestId('swipes').getByRole('button').last()).not.toHaveAttribute('aria-disabled', 'true', { timeout: 30_000 });
	await readToEnd(page);
	await expect(page.getByTestId('text-window')).toContainText(swipeReply(place));
}

/** The State drawer (read afresh each time it opens) names `place`; closed again after. */
async function stateSays(page: Page, place: string, shot?: string): Promise<void> {
	await page.locator('.hud a[href="#state"]').click();
	const sheet = page.getByTestId('state-sheet');
	await expect(sheet).toContainText(place);
	for (const other of SWIPE_PLACES) if (other !== place) await expect(sheet).not.toContainText(other);
	if (shot) await page.screenshot({ path: `${SHOTS}/${shot}.png` });
	await page.keyboard.press('Escape');
	await expect(sheet).toBeHidden();
}

for (const language of ['en', 'ja'] as const) {
	test(`swipes by keyboard (${language}, desktop): → another reply, ← back, → forward again; each with its own records`, async ({
		page
	}) => {
		test.slow();
		await page.setViewportSize({ width: 1280, height: 800 });
		await startStory(page, language, language === 'ja' ? '灯台' : 'Lighthouse');
		// A line of this test's own: the mock counts the answers to each line.
		await input(page).fill(language === 'ja' ? '先へ進む。#swipe' : 'I walk on. #swipe');
		await input(page).press('Enter');
		await showing(page, 1, 1, FIRST);
		await stateSays(page, FIRST);

		// → on the newest reply: another one, the first kept.
		await page.keyboard.press('ArrowRight');
		await showing(page, 2, 2, SECOND);
		await page.screenshot({ path: `${SHOTS}/desktop-${language}-second.png` });
		await stateSays(page, SECOND, `desktop-${language}-second-state`);

		// ← back to the first: its place, its reply.
		await page.keyboard.press('ArrowLeft');
		await showing(page, 1, 2, FIRST);
		await stateSays(page, FIRST);

		// → forward to the second again: chosen, not asked for anew (still two).
		await page.keyboard.press('ArrowRight');
		await showing(page, 2, 2, SECOND);
		await stateSays(page, SECOND);
	});
}

test.describe('on a phone', () => {
	test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

	/** A finger's sideways swipe across the stage (or at height `y`: the text window's), through the browser's own touch input. */
	async function swipe(page: Page, direction: 'left' | 'right', y = 300): Promise<void> {
		const cdp = await page.context().newCDPSession(page);
		const [from, to] = direction === 'left' ? [320, 80] : [80, 320];
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
		for (let i = 1; i <= 5; i++)
			await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * i) / 5, y }] });
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
		await cdp.detach();
	}

	test('swipe left for another reply, right to go back (ja, phone)', async ({ page }) => {
		test.slow();
		await startStory(page, 'ja', '灯台');
		await input(page).fill('海沿いを歩く。#swipe');
		await input(page).press('Enter');
		await showing(page, 1, 1, FIRST);
		await swipe(page, 'left');
		await showing(page, 2, 2, SECOND);
		await page.screenshot({ path: `${SHOTS}/phone-ja-second.png` });
		await stateSays(page, SECOND, 'phone-ja-second-state');
		await swipe(page, 'right');
		await showing(page, 1, 2, FIRST);
		await stateSays(page, FIRST);
		// On the text window too, across the words of the reply.
		const text = await page.getByTestId('line-text').boundingBox();
		if (!text) throw new Error('no text in the window');
		await swipe(page, 'left', text.y + text.height / 2);
		await showing(page, 2, 2, SECOND);
		await stateSays(page, SECOND);
	});
});

/**
 * The stage's sound (issue 24): nothing plays, and the synthesiser is not even loaded, before the
 * reader's first click; then the place's ambience plays at its channel's volume. The Settings sliders,
 * the mute and "no sound" act on the audio graph at once, and "no sound" holds across a reload. A test
 * cannot listen: the screen reports the AudioContext's state and the gains its nodes hold
 * (`data-testid="sound"`).
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';

const SHOTS = 'test-results/play/sound';
const sound = (page: Page) => page.getByTestId('sound');

/** Sets a range input the way a drag does (its `input` event). */
async function slide(page: Page, label: string, value: number): Promise<void> {
	await page.getByLabel(label, { exact: true }).evaluate((el, v) => {
		if (!(el instanceof HTMLInputElement)) throw new Error('not an input');
		el.value = String(v);
		el.dispatchEvent(new Event('input', { bubbles: true }));
	}, value);
}

test('sound starts with the first click at the channel volume; sliders, mute and "no sound" act at once', async ({ page }) => {
	const engineLoads: string[] = [];
	page.on('response', async (response) => {
		if (!/\.js(\?|$)/.test(new URL(response.url()).pathname)) return;
		const body = await response.text().catch(() => '');
		if (body.includes('createBiquadFilter')) engineLoads.push(response.url());
	});
	await signUp(page, uniqueName('sound'));
	await createSession(page, 'Sound', /Vesca/);
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.waitForLoadState('networkidle');
	// Before any interaction: no audio context and no synthesiser loaded.
	await expect(sound(page)).toHaveAttribute('data-state', 'off');
	expect(engineLoads).toEqual([]);

	await page.getByTestId('title-card').click();
	await expect(sound(page)).toHaveAttribute('data-state', 'running');
	expect(engineLoads).toHaveLength(1);
	// The Crooked Lantern is a room: its hearth, at the ambience channel's default volume.
	await expect(sound(page)).toHaveAttribute('data-ambience', 'fire');
	await expect(sound(page)).toHaveAttribute('data-ambience-gain', '0.5');
	await expect(sound(page)).toHaveAttribute('data-effects-gain', '0.800000011920929');

	await page.locator('.quick a[href="#settings"]').click();
	await slide(page, 'Ambience volume', 20);
	await expect(sound(page)).toHaveAttribute('data-ambience-gain', '0.20000000298023224');
	await page.screenshot({ path: `${SHOTS}/settings-en-desktop.png` });
	await page.getByLabel('Mute', { exact: true }).check();
	await expect(sound(page)).toHaveAttribute('data-ambience-gain', '0');
	await expect(sound(page)).toHaveAttribute('data-effects-gain', '0');
	await page.getByLabel('Mute', { exact: true }).uncheck();
	await expect(sound(page)).toHaveAttribute('data-ambience-gain', '0.20000000298023224');

	// "No sound": the context closes, the volume rows go, and a reload and a click start nothing.
	await page.getByLabel('Sound', { exact: true }).uncheck();
	await expect(sound(page)).toHaveAttribute('data-state', 'off');
	await expect(page.getByLabel('Ambience volume', { exact: true })).toHaveCount(0);
	await page.reload();
	await page.getByTestId('title-card').click();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('line-text')).toBeVisible();
	await expect(sound(page)).toHaveAttribute('data-state', 'off');
});

/**
 * A Character Card as an author brings it: uploaded on "My presets", opened in the editor with the
 * report of where each field went, saved as it is (a real card imports as a playable preset), then
 * offered for export as a card. Screenshots of the report in both languages, desktop and phone, are
 * kept under test-results/presets/cards/ for a person to look at.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { uniqueName, signUp } from './helpers';

const SHOTS = 'test-results/presets/cards';
const CARD = readFileSync(new URL('../fixtures/cards/glade-warden.v2.json', import.meta.url));
const WORDS = {
	en: { report: 'What the import did', narration: 'Opening narration', save: 'Save', exportCard: 'Export as a character card' },
	ja: { report: '読み込みの結果', narration: '冒頭のナレーション', save: '保存', exportCard: 'キャラクターカードとして書き出す' }
} as const;

test('a card imports with its report in the editor and saves as a playable preset, in both languages', async ({ page, context }) => {
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1280, height: 800 });
	await signUp(page, uniqueName('cards'));
	const host = new URL(page.url()).hostname;
	for (const language of ['en', 'ja'] as const) {
		const words = WORDS[language];
		await context.addCookies([{ name: 'kantera_lang', value: language, domain: host, path: '/' }]);
		await page.setViewportSize({ width: 1280, height: 800 });
		await page.goto('/presets');
		await page.locator('#import-file').setInputFiles({ name: 'glade-warden.json', mimeType: 'application/json', buffer: CARD });
		await page.locator('form[action="?/import"] button[type="submit"]').click();
		await expect(page).toHaveURL(/\/presets\/[^/]+\/edit\?imported=1$/);
		const report = page.locator('details.report');
		await expect(report).toHaveAttribute('open', '');
		await expect(report.locator('summary')).toContainText(words.report);
		await expect(report).toContainText(`data.first_mes → ${words.narration}`);
		await expect(page.locator('#f-opening-narration')).toHaveValue(/You wake to the smell of crushed mint and rain/);
		await report.scrollIntoViewIfNeeded();
		await page.screenshot({ path: `${SHOTS}/import-report.desktop.${language}.png` });
		await page.setViewportSize({ width: 390, height: 844 });
		await report.scrollIntoViewIfNeeded();
		await page.screenshot({ path: `${SHOTS}/import-report.phone.${language}.png` });

		await page.getByRole('button', { name: words.save, exact: true }).click();
		await expect(page).toHaveURL(/\/presets\/[^/]+$/);
		await expect(page.getByText(words.exportCard)).toBeVisible();
		const download = page.waitForEvent('download');
		await page.getByRole('link', { name: 'PNG', exact: true }).click();
		expect((await download).suggestedFilename()).toMatch(/\.png$/);
	}
});

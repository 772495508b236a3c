/** The editor with JavaScript: autosaved drafts (server and browser), discarding one, counters, and exporting a preset file. */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { uniqueName, signUp } from './helpers';
import { fillEditor, MARKER } from './presets-helpers';

test('autosaves drafts, restores them after a reload, discards them, and exports the preset as a file', async ({ page }) => {
	await signUp(page, uniqueName('drafter'));

	// A new preset's draft lives in this browser until its first save.
	await page.goto('/presets/new');
	await page.locator('#f-title').fill('Half-written world');
	await expect(page.getByText(/^Draft kept in this browser at/)).toBeVisible();
	await page.reload();
	await expect(page.getByText(/^Your unsaved draft from .* was restored\.$/)).toBeVisible();
	await expect(page.locator('#f-title')).toHaveValue('Half-written world');
	await page.getByRole('button', { name: 'Start over' }).click();
	await expect(page.locator('#f-title')).toHaveValue('');

	const title = `Draft test ${Date.now() % 100000}`;
	await fillEditor(page, { title, tagline: 'A world to edit twice.' });
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText('Saved as version 1.')).toBeVisible();
	const presetPath = new URL(page.url()).pathname;
	// Saved: the browser's draft is gone, so "new" starts empty again.
	await page.goto('/presets/new');
	await expect(page.locator('#f-title')).toHaveValue('');

	// A saved preset's draft is kept on the server: it survives a reload until saved or discarded.
	await page.goto(`${presetPath}/edit`);
	await page.locator('#f-tagline').fill('An unsaved change.');
	await expect(page.locator('#f-tagline-count')).toHaveText('18 / 200');
	await expect(page.getByText(/^Draft saved at/)).toBeVisible();
	await page.reload();
	await expect(page.getByText(/^Showing your unsaved changes from/)).toBeVisible();
	await expect(page.locator('#f-tagline')).toHaveValue('An unsaved change.');
	await page.getByRole('button', { name: 'Discard changes' }).click();
	await expect(page.locator('#f-tagline')).toHaveValue('A world to edit twice.');
	await expect(page.getByText(/^Showing your unsaved changes/)).toHaveCount(0);

	// Export: the preset file of the current version, which imports back as a draft.
	await page.goto(presetPath);
	const download = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Export as a file' }).click();
	const file = await download;
	expect(file.suggestedFilename()).toMatch(/\.kantera-preset\.json$/);
	const saved = await file.path();
	const exported: unknown = JSON.parse(readFileSync(saved, 'utf8'));
	expect(exported).toMatchObject({ format: 'kantera.preset', formatVersion: 1, preset: { title, language: 'en' } });
	expect(JSON.stringify(exported)).toContain(MARKER);
	await page.goto('/presets');
	await page.getByLabel('File to import').setInputFiles(saved);
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	await expect(page.locator('#f-title')).toHaveValue(title);
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText('Saved as version 1.')).toBeVisible();
});

test('lists what does not exist in the world, shows the words that would fire on its own texts, and keeps the list', async ({ page }) => {
	await signUp(page, uniqueName('canon'));
	await page.goto('/presets/new');
	await fillEditor(page, { title: `Canon test ${Date.now() % 100000}`, tagline: 'A world without some things.' });
	const list = page.locator('#f-anachronisms');
	// "lamps" is in the opening place's look: the author sees it before a player meets a withdrawn reply.
	await list.fill('smartphone, mobile phone: telephones hang on walls\nlamp: candles only');
	const fired = page.getByTestId('would-fire');
	await expect(fired).toContainText('“lamp” in opening.scene.description');
	await expect(fired).not.toContainText('smartphone');
	for (const [width, height] of [
		[1280, 800],
		[390, 844]
	] as const) {
		await page.setViewportSize({ width, height });
		await fired.scrollIntoViewIfNeeded();
		await page.screenshot({ path: `test-results/presets/screens/canon.${width}.en.png` });
	}
	await list.fill('smartphone, mobile phone: telephones hang on walls');
	await expect(fired).toContainText('None of these words appear');
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText('Saved as version 1.')).toBeVisible();
	await page.goto(`${new URL(page.url()).pathname}/edit`);
	await expect(page.locator('#f-anachronisms')).toHaveValue('smartphone, mobile phone: telephones hang on walls');
});

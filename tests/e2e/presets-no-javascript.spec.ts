/** Writing, sharing, finding, favouriting and playing a world as plain HTML forms. */
import { test, expect } from '@playwright/test';
import { uniqueName, signUp, signOut } from './helpers';
import { fillEditor } from './presets-helpers';

test.use({ javaScriptEnabled: false });

test('without JavaScript: per-field errors with nothing lost, rows added, saved, published, found, favourited and played', async ({
	page
}) => {
	const author = uniqueName('nojsauthor');
	await signUp(page, author);
	await page.goto('/presets/new');
	const title = `Plain Lantern ${author.slice(-6)}`;
	await fillEditor(page, { title, tagline: 'A lamp-lit town written without a script.' });
	// Break two fields: each error lands next to its field; everything else stays as typed.
	await page.locator('#f-npcs-0-name').fill('Ilse (the archivist)');
	await page.locator('#f-opening-state').fill('[1, 2');
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByRole('alert').filter({ hasText: 'The preset was not saved: 2 problem(s) to fix' })).toBeVisible();
	await expect(page.locator('#f-npcs-0-name-error')).toHaveText('A name cannot hold @ : ( ) — the speaker tags use them.');
	await expect(page.locator('#f-opening-state-error')).toHaveText('Write a JSON object, e.g. {"hp": 10}.');
	await expect(page.locator('#f-npcs-0-name')).toHaveAttribute('aria-invalid', 'true');
	await expect(page.locator('#f-title')).toHaveValue(title);
	await expect(page.locator('#f-documents-setting-body')).toHaveValue(/## The Vault Below/);
	await expect(page.locator('#f-secrets-0-markers')).toHaveValue('Ilse stole the tide book');
	await page.screenshot({ path: 'test-results/presets/10-no-js-errors.png', fullPage: true });

	// The add button posts the form and comes back with one more row, values kept.
	await page.locator('#f-npcs-0-name').fill('Ilse');
	await page.getByRole('button', { name: 'Add a character' }).click();
	await expect(page.locator('#f-npcs-1-name')).toBeVisible();
	await expect(page.locator('#f-npcs-0-name')).toHaveValue('Ilse');
	await page.getByRole('button', { name: 'Remove character 2' }).click();
	await expect(page.locator('#f-npcs-1-name')).toHaveCount(0);
	await page.locator('#f-opening-state').fill('{"hp": 10}');
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText('Saved as version 1.')).toBeVisible();
	const presetUrl = new URL(page.url()).pathname;

	await page.getByRole('radio', { name: /^Public/ }).check();
	await page.getByRole('button', { name: 'Save visibility' }).click();
	await expect(page.getByText('Now Public.')).toBeVisible();
	await signOut(page);

	// Signed out, the landing page leads to the gallery, and the gallery's search is a plain GET form.
	await page.goto('/');
	await page.getByRole('link', { name: 'Browse the world gallery' }).click();
	await page.getByLabel('Search titles and taglines').fill('lamp-lit');
	await page.getByLabel('Language', { exact: true }).selectOption('en');
	await page.getByRole('button', { name: 'Search' }).click();
	await expect(page).toHaveURL(/q=lamp-lit/);
	await page.getByRole('link', { name: title }).click();
	await expect(page.getByRole('link', { name: 'Sign in to play this world' })).toBeVisible();

	await signUp(page, uniqueName('nojsreader'));
	await page.goto(presetUrl);
	await page.getByRole('button', { name: '☆ Favourite' }).click();
	await expect(page.getByRole('button', { name: '★ Remove from favourites' })).toBeVisible();
	await page.goto('/gallery?shelf=favorites');
	await expect(page.getByRole('list', { name: 'Favourites' }).getByRole('link', { name: title })).toBeVisible();
	await page.goto(presetUrl);
	await page.getByLabel('Title of your session (optional)').fill('My lantern night');
	await page.getByRole('button', { name: 'Play this world' }).click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	await expect(page).toHaveTitle('My lantern night · Kantera');
	// The session opens on the world's own title card; Start is a link, and the prologue is the
	// opening scene and who is there (the premise is one of the documents this player doesn't read).
	await expect(page.getByRole('heading', { name: title })).toBeVisible();
	await page.getByRole('link', { name: 'Start' }).click();
	await expect(page.getByTestId('line-text')).toContainText('Reading Room');
	await expect(page.getByTestId('rest-line').last()).toHaveText('Ilse — Head archivist.');
	await expect(page.locator('body')).not.toContainText('You arrive at the Saltglass Archive');
	// The Documents drawer, rendered by the server: the names only, none of them a link.
	await page.getByRole('link', { name: 'Documents', exact: true }).click();
	const docs = page.locator('#documents');
	await expect(docs.getByText('World Setting (for the GM only)')).toBeVisible();
	await expect(docs.getByRole('link', { name: 'World Setting' })).toHaveCount(0);
	await page.screenshot({ path: 'test-results/presets/11-no-js-sealed-play.png', fullPage: true });
});

/**
 * Authors and players, the whole story in Chromium against the built app and the scripted GM:
 * author A writes a preset with a secret and a marker in a setting section, gets the leak warning
 * as they type, fixes it, saves and shares it unlisted; user B opens the link, plays it (documents
 * by name only; the marker in no page, API response or event, though the GM reads it), favourites
 * it; A makes it public; it is on New and on B's Favourites; Popular orders by distinct players.
 * Then a Character Card PNG is imported and finished into a preset.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';
import { fillEditor, MARKER, playerVisibleText, presetContent, presetIdOf, SECRET_MARKER, sessionIdOf } from './presets-helpers';
import { LORE_REPLY } from '../mock-llm/adv-play';
import { base64Json, cardPng } from '../helpers/card-png';

const SHOTS = 'test-results/presets';

async function userPage(browser: Browser, prefix: string): Promise<{ page: Page; name: string }> {
	const context = await browser.newContext();
	const page = await context.newPage();
	const name = uniqueName(prefix);
	await signUp(page, name);
	return { page, name };
}

/** Positions of the given preset ids on a shelf, as the API lists them. */
async function shelf(page: Page, query: string): Promise<string[]> {
	const res = await page.request.get(`/api/v1/gallery?${query}`);
	expect(res.status()).toBe(200);
	const body: unknown = await res.json();
	if (typeof body !== 'object' || body === null || !('items' in body) || !Array.isArray(body.items)) throw new Error('not a gallery page');
	return body.items.map((i: { id: string }) => i.id);
}

test('an author shares a world unlisted, another user plays it spoiler-free, it goes public and up the shelves', async ({ browser }) => {
	test.setTimeout(180_000);
	const a = await userPage(browser, 'author');
	const b = await userPage(browser, 'reader');
	const title = `Saltglass Archive ${a.name.slice(-6)}`;

	// A writes the preset; the leak check flags the secret's marker in the NPC's look while typing.
	await a.page.goto('/presets/new');
	await expect(a.page.getByRole('heading', { name: 'New world preset' })).toBeVisible();
	await fillEditor(
		a.page,
		{ title, tagline: 'Glass books, quiet floors, one theft.' },
		{ appearance: `Brass spectacles; rumour says ${SECRET_MARKER}.` }
	);
	const warning = a.page.locator('#f-npcs-0-appearance-warning');
	await expect(warning).toContainText(`Gives away the secret “ilse-is-the-thief”: this contains its marker “${SECRET_MARKER}”.`);
	await expect(a.page.getByText('Spoiler warning: 1 secret marker(s) in what players can see')).toBeVisible();
	await expect(a.page.locator('#f-title-count')).toHaveText(`${title.length} / 200`);
	// The live preview renders the setting's Markdown.
	await a.page.locator('#f-documents-setting-body').locator('..').getByRole('button', { name: 'Show preview' }).click();
	await expect(a.page.locator('#f-documents-setting-body-preview').getByRole('heading', { name: 'The Vault Below' })).toBeVisible();
	await a.page.screenshot({ path: `${SHOTS}/01-editor-leak-warning.png`, fullPage: true });
	await a.page.locator('#f-npcs-0-appearance').fill('A grey-haired woman in a long blue coat with brass spectacles.');
	await expect(warning).toHaveCount(0);
	await expect(a.page.getByText(/Spoiler warning/)).toHaveCount(0);
	await a.page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(a.page.getByText('Saved as version 1.')).toBeVisible();
	const presetId = presetIdOf(a.page);

	// Shared unlisted: reachable by the link, never listed, not indexed.
	await a.page.getByRole('radio', { name: /^Unlisted/ }).check();
	await a.page.getByRole('button', { name: 'Save visibility' }).click();
	await expect(a.page.getByText('Now Unlisted.')).toBeVisible();
	const link = await a.page.getByLabel('Link to share').inputValue();
	expect(link).toMatch(new RegExp(`/presets/${presetId}$`));
	expect(await shelf(b.page, 'shelf=new&limit=60')).not.toContain(presetId);

	// B opens the link: the card, the documents by name, a note that they stay with the GM.
	const page = b.page;
	const response = await page.goto(link);
	expect(response?.headers()['x-robots-tag']).toBe('noindex');
	await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
	await expect(page.getByRole('heading', { name: title })).toBeVisible();
	await expect(page.getByText('The documents of this world are for the game master only')).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Ilse' })).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/02-unlisted-preset-page.png`, fullPage: true });
	await page.getByRole('button', { name: '☆ Favourite' }).click();
	await expect(page.getByRole('button', { name: '★ Remove from favourites' })).toBeVisible();

	// B plays it. The Documents panel lists names only; the GM looks the vault up and says nothing of it.
	await page.getByRole('button', { name: 'Play this world' }).click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const sessionId = sessionIdOf(page);
	// It opens on the world's title card and the prologue told from the preset's opening: the place and
	// who is there, not the premise (a document this player doesn't read).
	await expect(page.getByTestId('title-card')).toContainText(title);
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('line-text')).toContainText('Reading Room');
	for (let i = 0; i < 10 && !(await page.locator('#turn-input').isVisible()); i++) await page.keyboard.press('Enter');
	await expect(page.getByTestId('line-text')).toHaveText('Ilse — Head archivist.');
	await expect(page.locator('.stage [data-slot="center"]')).toHaveAttribute('data-character', 'Ilse');
	await page.getByRole('navigation', { name: 'Records and menu' }).getByRole('link', { name: 'Documents' }).click();
	const panel = page.getByRole('dialog', { name: 'Documents' });
	await expect(panel.getByText('World Setting (for the GM only)')).toBeVisible();
	await expect(panel.getByRole('link', { name: 'World Setting' })).toHaveCount(0);
	await expect(panel.getByText(/kept for the game master/)).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/03-sealed-documents-panel.png`, fullPage: true });
	await page.keyboard.press('Escape');
	await page.locator('#turn-input').fill('I ask Ilse what lies below the archive. #lore');
	await page.locator('#turn-input').press('Enter');
	await expect(page.getByTestId('line-text')).toContainText(LORE_REPLY, { timeout: 30_000 });
	await page.screenshot({ path: `${SHOTS}/03-sealed-play-reply.png`, fullPage: true });
	expect(await page.content()).not.toContain(MARKER);
	const visible = await playerVisibleText(page, sessionId);
	expect(visible).toContain(LORE_REPLY);
	expect(visible).toContain('turn.committed');
	expect(visible).not.toContain(MARKER);
	expect(visible).not.toContain('The Vault Below');
	for (const path of [`/presets/${presetId}`, '/gallery?shelf=favorites', '/']) {
		await page.goto(path);
		expect(await page.content()).not.toContain(MARKER);
	}
	const card = await page.request.get(`/api/v1/presets/${presetId}`);
	expect(await card.text()).not.toContain(MARKER);

	// A makes it public: it goes on New; B's Favourites shelf has it.
	await a.page.getByRole('radio', { name: /^Public/ }).check();
	await a.page.getByRole('button', { name: 'Save visibility' }).click();
	await expect(a.page.getByText('Now Public.')).toBeVisible();
	await page.goto('/gallery');
	const newShelf = page.getByRole('list', { name: 'New' });
	await expect(newShelf.getByRole('listitem').nth(2)).toContainText(title);
	await expect(newShelf.getByRole('listitem').first()).toContainText('Official');
	await page.screenshot({ path: `${SHOTS}/04-gallery-new.png`, fullPage: true });
	await page.getByRole('link', { name: 'Favourites' }).click();
	await expect(page.getByRole('list', { name: 'Favourites' }).getByRole('link', { name: title })).toBeVisible();
	await page.getByLabel('Search titles and taglines').fill('glass books');
	await page.getByRole('button', { name: 'Search' }).click();
	await expect(page.getByRole('list', { name: 'Favourites' }).getByRole('listitem')).toHaveCount(1);

	// Popular counts distinct players: the second world has more sessions but one player.
	const second = await a.page.request.post('/api/v1/presets', {
		data: presetContent({ title: `Quiet Tide ${a.name.slice(-6)}`, tagline: 'A harbour that keeps its secrets.' })
	});
	expect(second.status()).toBe(201);
	const created: unknown = await second.json();
	const secondId = typeof created === 'object' && created !== null && 'id' in created && typeof created.id === 'string' ? created.id : '';
	expect(secondId).toMatch(/^[a-z2-7]{20}$/);
	expect((await a.page.request.patch(`/api/v1/presets/${secondId}`, { data: { visibility: 'public' } })).status()).toBe(200);
	const c = await userPage(browser, 'third');
	for (let i = 0; i < 3; i++) expect((await c.page.request.post('/api/v1/sessions', { data: { preset: secondId } })).status()).toBe(201);
	expect((await c.page.request.post('/api/v1/sessions', { data: { preset: presetId } })).status()).toBe(201);
	const popular = await shelf(c.page, 'shelf=popular&limit=60');
	expect(popular.indexOf(presetId)).toBeGreaterThanOrEqual(0);
	expect(popular.indexOf(presetId)).toBeLessThan(popular.indexOf(secondId));
	await c.page.goto('/gallery?shelf=popular');
	await expect(c.page.getByRole('list', { name: 'Popular' }).getByRole('link', { name: title })).toBeVisible();
	await expect(c.page.getByRole('list', { name: 'Popular' }).getByRole('listitem').filter({ hasText: title })).toContainText('2 played');
	await c.page.screenshot({ path: `${SHOTS}/05-gallery-popular.png`, fullPage: true });
});

test('a Character Card PNG becomes a draft preset, finished in the editor and saved', async ({ browser }) => {
	const { page } = await userPage(browser, 'carder');
	const card = {
		spec: 'chara_card_v3',
		spec_version: '3.0',
		data: {
			name: 'Mira Calloway',
			description: 'A tall woman in a grey oilskin coat with a salt-white braid.',
			personality: 'Dry and patient.',
			scenario: '{{user}} washes up on Calloway Rock, where {{char}} keeps the lighthouse.',
			first_mes: 'You picked a poor night to swim.',
			system_prompt: 'Keep scenes short and weathered.',
			character_book: {
				entries: [
					{
						keys: ['rock'],
						name: 'Calloway Rock',
						content: 'A bare island of black stone.',
						enabled: true,
						insertion_order: 0,
						use_regex: false,
						extensions: {}
					},
					{
						keys: ['lamp'],
						name: 'The Lamp',
						content: 'It burns whale oil, when there is any.',
						enabled: true,
						insertion_order: 1,
						use_regex: false,
						extensions: {}
					},
					{
						keys: ['guild'],
						name: 'The Harbour Guild',
						content: 'They want the light dark.',
						enabled: true,
						insertion_order: 2,
						use_regex: false,
						extensions: {}
					}
				]
			}
		}
	};
	await page.goto('/presets');
	await page
		.getByLabel('File to import')
		.setInputFiles({ name: 'mira.png', mimeType: 'image/png', buffer: Buffer.from(cardPng({ ccv3: base64Json(card) })) });
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	await expect(page).toHaveURL(/\/presets\/[a-z2-7]{20}\/edit\?imported=1$/);
	await expect(page.locator('#f-title')).toHaveValue('Mira Calloway');
	await expect(page.locator('#f-npcs-0-name')).toHaveValue('Mira Calloway');
	await expect(page.locator('#f-documents-premise-body')).toHaveValue(
		'You wash up on Calloway Rock, where Mira Calloway keeps the lighthouse.'
	);
	await expect(page.locator('#f-documents-setting-body')).toHaveValue(/## Calloway Rock/);
	await expect(page.locator('#f-gmBehaviour')).toHaveValue('Keep scenes short and weathered.');
	await page.screenshot({ path: `${SHOTS}/06-imported-card.png`, fullPage: true });

	// What a card cannot give has a neutral default (issue 22): the import saves as it is.
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByText('Saved as version 1.')).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Mira Calloway', level: 1 })).toBeVisible();
});

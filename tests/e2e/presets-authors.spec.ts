/**
 * For authors, in a real browser against the built server: tags and the gallery's tag filter (by
 * keyboard), a world rated mature hidden from a reader until they opt in on their account page,
 * the version history (what changed, restore as a new version; 404 for anyone else), "preview as a
 * player" without anything GM-only, remix with attribution, and creator pages. Then the new screens
 * in English and Japanese, desktop and phone, kept as screenshots under test-results/presets/authors/.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';
import { presetContent } from './presets-helpers';

const SHOTS = 'test-results/presets/authors';
const PERSONALITY = 'Precise, secretive, kind to beginners.';

async function idOf(res: { json(): Promise<unknown> }): Promise<string> {
	const body: unknown = await res.json();
	return typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string' ? body.id : '';
}

async function createPublic(page: Page, content: Record<string, unknown>): Promise<string> {
	const res = await page.request.post('/api/v1/presets', { data: content });
	expect(res.status()).toBe(201);
	const id = await idOf(res);
	expect((await page.request.patch(`/api/v1/presets/${id}`, { data: { visibility: 'public' } })).status()).toBe(200);
	return id;
}

async function setLanguage(page: Page, language: 'en' | 'ja'): Promise<void> {
	const url = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1');
	await page.context().addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
}

test('tags, mature opt-in, versions, preview, remix and creator pages', async ({ browser }) => {
	test.setTimeout(240_000);
	const tag = uniqueName('tide').toLowerCase();
	const authorName = uniqueName('weaver');
	const author = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
	await signUp(author, authorName);
	const base = presetContent({ title: `Tide Archive ${tag}`, tagline: 'Copyists and stolen books.' });
	const calm = await createPublic(author, { ...base, tags: [`#${tag.toUpperCase()}`, 'Slow   Burn'], remixAllowed: true });
	const grim = await createPublic(author, {
		...presetContent({ title: `Grim Archive ${tag}`, tagline: 'Worse things in the stacks.' }),
		tags: [tag],
		rating: 'mature'
	});

	// A reader filters the gallery by tag with the keyboard: only the general world, its tags shown normalised.
	const readerName = uniqueName('reader');
	const reader = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
	await signUp(reader, readerName);
	await reader.goto('/gallery');
	await reader.getByLabel('Tag', { exact: true }).focus();
	await reader.keyboard.type(tag.toUpperCase());
	await reader.keyboard.press('Enter');
	await expect(reader).toHaveURL(new RegExp(`tag=${tag}`, 'i'));
	const shelf = reader.getByRole('list', { name: 'New' });
	await expect(shelf.getByRole('link', { name: `Tide Archive ${tag}` })).toBeVisible();
	await expect(shelf.getByRole('link', { name: `Grim Archive ${tag}` })).toHaveCount(0);
	await expect(shelf.getByRole('link', { name: '#slow burn' })).toBeVisible();
	// The mature world is not found for them, in the page and in the API (search included).
	expect((await reader.goto(`/presets/${grim}`))?.status()).toBe(404);
	const api = await reader.request.get(`/api/v1/gallery?q=${encodeURIComponent('grim archive')}`);
	expect(JSON.stringify(await api.json())).not.toContain(grim);

	// They opt in on their account page, by keyboard; the mature world appears, marked.
	await reader.goto('/account');
	const box = reader.getByLabel('Show worlds rated mature');
	await box.focus();
	await reader.keyboard.press('Space');
	await expect(box).toBeChecked();
	await reader.keyboard.press('Tab');
	await expect(reader.locator('form[action="?/mature"]').getByRole('button', { name: 'Save' })).toBeFocused();
	await reader.keyboard.press('Enter');
	await expect(reader.getByText('Worlds rated mature are now shown to you.')).toBeVisible();
	await reader.goto(`/gallery?tag=${encodeURIComponent(tag)}`);
	await expect(shelf.getByRole('link', { name: `Grim Archive ${tag}` })).toBeVisible();
	await expect((await reader.request.get(`/api/v1/gallery?tag=${tag}`)).json()).resolves.toMatchObject({
		items: expect.arrayContaining([expect.objectContaining({ id: grim, rating: 'mature' })])
	});

	// Versions: a second version, what changed, restore as a new one.
	const v2 = { ...base, title: `Tide Archive II ${tag}`, tags: [tag], remixAllowed: true };
	expect((await author.request.put(`/api/v1/presets/${calm}`, { data: v2 })).status()).toBe(200);
	await author.goto(`/presets/${calm}`);
	await author.getByRole('link', { name: 'Version history' }).click();
	await expect(author.getByRole('heading', { name: `Versions of Tide Archive II ${tag}` })).toBeVisible();
	await author.getByRole('link', { name: 'Version 2' }).click();
	await expect(author.getByRole('heading', { name: 'What changed since version 1' })).toBeVisible();
	await expect(author.locator('.changes code', { hasText: /^title$/ })).toBeVisible();
	await author.goto(`/presets/${calm}/versions/1`);
	await author.getByRole('button', { name: 'Restore as a new version' }).click();
	await expect(author.getByText('Version 1 was restored as the newest version.')).toBeVisible();
	await expect(author).toHaveURL(new RegExp(`/presets/${calm}/versions/3`));
	// Nobody else has a history to read.
	expect((await reader.goto(`/presets/${calm}/versions`))?.status()).toBe(404);
	expect((await reader.request.get(`/api/v1/presets/${calm}/versions/1`)).status()).toBe(404);

	// Preview as a player: the stranger's page, nothing GM-only.
	await author.goto(`/presets/${calm}`);
	await author.getByRole('link', { name: 'Preview as a player' }).click();
	await expect(author.getByTestId('preview-banner')).toBeVisible();
	await expect(author.getByRole('heading', { name: `Tide Archive ${tag}`, level: 1 })).toBeVisible();
	await expect(author.getByText(PERSONALITY)).toHaveCount(0);
	await expect(author.getByRole('heading', { name: 'Author tools' })).toHaveCount(0);
	const previewText = await author.locator('main').innerText();
	for (const gmOnly of ['Ilse greets the copyist at dawn.', 'Keep a quiet, scholarly tone', 'Ilse took the tide book'])
		expect(previewText).not.toContain(gmOnly);

	// Remix: the reader copies it into a draft of their own; the copy names the original.
	await reader.goto(`/presets/${calm}`);
	await reader.getByRole('button', { name: 'Remix' }).click();
	await expect(reader).toHaveURL(/\/presets\/[a-z0-9]+\/edit$/);
	await reader.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(reader.getByTestId('remix-of')).toContainText(`A remix of “Tide Archive ${tag}” by ${authorName}.`);
	await reader.getByTestId('remix-of').getByRole('link', { name: 'The original' }).click();
	await expect(reader).toHaveURL(new RegExp(`/presets/${calm}$`));
	// The grim world does not allow it: no button.
	await reader.goto(`/presets/${grim}`);
	await expect(reader.getByRole('button', { name: 'Remix' })).toHaveCount(0);
	expect((await reader.request.post(`/api/v1/presets/${grim}/remix`)).status()).toBe(403);

	// Creator page, from the author's name on the preset page.
	await reader.goto(`/presets/${calm}`);
	await reader.getByRole('link', { name: `by ${authorName}` }).click();
	await expect(reader.getByRole('heading', { name: `Worlds by ${authorName}` })).toBeVisible();
	await expect(reader.getByRole('link', { name: `Tide Archive ${tag}` })).toBeVisible();
	expect((await reader.goto('/creators/no-such-creator-here'))?.status()).toBe(404);

	// The screens, in both languages, on a desktop and a phone.
	for (const language of ['en', 'ja'] as const) {
		for (const [device, viewport] of [
			['desktop', { width: 1280, height: 800 }],
			['phone', { width: 390, height: 844 }]
		] as const) {
			for (const page of [author, reader]) {
				await setLanguage(page, language);
				await page.setViewportSize(viewport);
			}
			const shots: [Page, string, string][] = [
				[reader, 'gallery-tag', `/gallery?tag=${encodeURIComponent(tag)}`],
				[reader, 'account', '/account'],
				[reader, 'creator', `/creators/${authorName}`],
				[author, 'versions', `/presets/${calm}/versions`],
				[author, 'version', `/presets/${calm}/versions/2`],
				[author, 'preview', `/presets/${calm}?preview=player`],
				[author, 'editor-about', `/presets/${calm}/edit`]
			];
			for (const [page, name, url] of shots) {
				await page.goto(url);
				await page.screenshot({ path: `${SHOTS}/${name}.${device}.${language}.png`, fullPage: true });
			}
		}
	}
});

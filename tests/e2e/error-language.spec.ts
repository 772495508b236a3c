/**
 * Messages the server makes, read in the reader's language: the gallery's refusal of a search, a
 * refused world import, and the error page (404, 403, 413, 500), in Japanese and in English. Kept as
 * screenshots under test-results/error-language/ for a person to look at.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { GalleryPageSchema } from '../../src/lib/types/presets';
import { uniqueName, signUp } from './helpers';
import { presetContent } from './presets-helpers';
import { startLikeReadme, type StartedServer } from './start-server';

const SHOTS = 'test-results/error-language';

async function shoot(page: Page, name: string, language: string): Promise<void> {
	await page.screenshot({ path: `${SHOTS}/${name}.${language}.png`, fullPage: true });
}

/** A signed-up player whose pages read in `language` (the nav's switch: the cookie). */
async function playerIn(browser: Browser, language: 'en' | 'ja'): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
	const page = await context.newPage();
	await signUp(page, uniqueName(`err${language}`));
	const url = new URL(page.url());
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	return page;
}

async function officialPresetId(page: Page): Promise<string> {
	const shelf = v.parse(GalleryPageSchema, await (await page.request.get('/api/v1/gallery?limit=60')).json());
	const official = shelf.items.find((item) => item.official);
	if (!official) throw new Error('no official preset on the shelves');
	return official.id;
}

const WORDS = {
	ja: {
		galleryInvalid: 'このアドレスの検索条件かページ指定が読めませんでした。',
		searchLong: '検索語は 100 文字までです。',
		importFile: '読み込むファイル',
		importButton: '読み込む',
		importFailed: 'このファイルは読み込めませんでした: ファイルが正しい JSON ではありません。',
		notFound: '見つかりません',
		nothingHere: 'このアドレスには何もありません。',
		notAllowed: '許可されていません',
		readOnly: '公式プリセットは Kantera に付属しているため、変更できません。',
		failed: '問題が起きました',
		internal: /^サーバー側で問題が起きました（エラー [0-9a-f]{8}）。/,
		tooLarge: /送られたデータが、このサーバーの受け付ける大きさ（\d+ バイト）を超えています。/,
		badProvider: '連携を外せるサインイン方法に、そのようなものはありません。',
		badLanguage: '物語の言語は 日本語 か English から選んでください。',
		badWorld: '一覧にある世界から選んでください。',
		badVisibility: '非公開・限定公開・公開のどれかを選んでください。'
	},
	en: {
		galleryInvalid: 'That address had a search or page this gallery does not understand',
		searchLong: 'A search has at most 100 characters.',
		importFile: 'File to import',
		importButton: 'Import',
		importFailed: 'This file could not be imported: The file is not valid JSON.',
		notFound: 'Not found',
		nothingHere: 'There is no preset at this address.',
		notAllowed: 'Not allowed',
		readOnly: 'Official presets ship with Kantera and cannot be changed.',
		failed: 'Something went wrong',
		internal: /^Something went wrong on our side \(error [0-9a-f]{8}\)\./,
		tooLarge: /The request body is larger than this server accepts \(\d+ bytes\)\./,
		badProvider: 'There is no such sign-in provider to unlink.',
		badLanguage: 'Choose the story’s language: 日本語 or English.',
		badWorld: 'Choose one of the listed worlds.',
		badVisibility: 'Choose private, unlisted or public.'
	}
} as const;

for (const language of ['ja', 'en'] as const) {
	test(`server-made messages read in ${language === 'ja' ? 'Japanese' : 'English'}`, async ({ browser }) => {
		test.setTimeout(120_000);
		const w = WORDS[language];
		const page = await playerIn(browser, language);

		// The gallery says why it could not read a hand-made search.
		await page.goto(`/gallery?q=${'x'.repeat(101)}`);
		const galleryAlert = page.getByRole('alert');
		await expect(galleryAlert).toContainText(w.galleryInvalid);
		await expect(galleryAlert).toContainText(w.searchLong);
		await shoot(page, 'gallery-search', language);

		// A file that is not a preset or a card is refused, saying why.
		await page.goto('/presets', { waitUntil: 'networkidle' });
		await page
			.getByLabel(w.importFile)
			.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"spec": ') });
		await page.getByRole('button', { name: w.importButton, exact: true }).click();
		await expect(page.locator('#import-error')).toHaveText(w.importFailed);
		await shoot(page, 'import-error', language);

		// The error page: no such preset (404), an official preset is not editable (403).
		await page.goto('/presets/nosuchpresetatall');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.notFound);
		await expect(page.getByText(w.nothingHere)).toBeVisible();
		await page.goto(`/presets/${await officialPresetId(page)}/edit`);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.notAllowed);
		await expect(page.getByText(w.readOnly)).toBeVisible();
		await shoot(page, 'error-403', language);

		// A body over the server's limit is refused before any page loads: SvelteKit's plain error page, still in the reader's language.
		const tooLarge = await page.request.post('/presets?/import', {
			headers: { origin: new URL(page.url()).origin, accept: 'text/html' },
			multipart: { file: { name: 'big.json', mimeType: 'application/json', buffer: Buffer.alloc(2 * 1024 * 1024, 0x20) } }
		});
		expect(tooLarge.status()).toBe(413);
		expect(await tooLarge.text()).toMatch(w.tooLarge);

		// Hand-made form posts the pages never send: still answered in the reader's language.
		const origin = new URL(page.url()).origin;
		const post = async (to: string, form: Record<string, string>) =>
			(await page.request.post(to, { form, headers: { origin, accept: 'text/html' } })).text();
		expect(await post('/account?/unlink', { provider: 'myspace' })).toContain(w.badProvider);
		expect(await post('/?/create', { title: 'Lost', language: 'fr', world: '' })).toContain(w.badLanguage);
		expect(await post('/?/create', { title: 'Lost', language: 'en', world: 'atlantis' })).toContain(w.badWorld);
		const made = await page.request.post('/api/v1/presets', { data: presetContent({ title: 'Mine', tagline: 'Only mine.' }, language) });
		expect(made.status()).toBe(201);
		const { id } = v.parse(v.object({ id: v.string() }), await made.json());
		expect(await post(`/presets/${id}?/visibility`, { visibility: 'everyone' })).toContain(w.badVisibility);
		await page.context().close();
	});
}

test.describe('a failure on the server’s side', () => {
	let server: StartedServer;
	let blocker: string;
	test.beforeAll(async () => {
		// Session databases "inside" a plain file: the directory cannot be made, so starting a session fails unexpectedly (500).
		blocker = mkdtempSync(path.join(tmpdir(), 'kantera-blocked-'));
		writeFileSync(path.join(blocker, 'file'), '');
		server = await startLikeReadme({ KANTERA_SESSION_DB_URL: `file:${path.join(blocker, 'file', '{id}.db')}` });
	});
	test.afterAll(async () => {
		await server.stop();
		rmSync(blocker, { recursive: true, force: true });
	});

	for (const language of ['ja', 'en'] as const) {
		test(`the error page says so in ${language === 'ja' ? 'Japanese' : 'English'}, with the error id`, async ({ browser }) => {
			const w = WORDS[language];
			const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1100, height: 800 } });
			const page = await context.newPage();
			await signUp(page, uniqueName(`fail${language}`));
			await context.addCookies([{ name: 'kantera_lang', value: language, domain: new URL(server.url).hostname, path: '/' }]);
			await page.goto('/', { waitUntil: 'networkidle' });
			await page.locator('#new-title').fill('Never started');
			await page.getByRole('radio').last().check();
			const created = page.waitForResponse((r) => r.request().method() === 'POST');
			await page.getByRole('button', { name: language === 'ja' ? '作成' : 'Create', exact: true }).click();
			expect((await created).status()).toBe(500);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.failed);
			await expect(page.locator('main p').first()).toHaveText(w.internal);
			await shoot(page, 'error-500', language);
			await context.close();
		});
	}
});

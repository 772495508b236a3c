/**
 * Every new screen of presets and the gallery, in English and Japanese, kept as screenshots under
 * test-results/presets/screens/ for a person to look at; on the way, the moderation story: a reader
 * reports a public world, an administrator takes it down with a reason, it leaves the shelves, its author reads why and
 * appeals, and the administrator sees the appeal and the act in the audit log.
 */
import { test, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { uniqueName, signUp, signIn, PASSWORD } from './helpers';
import { presetContent } from './presets-helpers';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const SHOTS = 'test-results/presets/screens';
const LANGUAGES = ['en', 'ja'] as const;

/** Content-Security-Policy violations reported by any page of the run (the gallery, editor and preset pages run under the policy too). */
const violations: string[] = [];

async function contextIn(browser: Browser, language: 'en' | 'ja'): Promise<BrowserContext> {
	const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
	const url = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1');
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	await context.exposeFunction('kanteraPolicyViolation', (text: string) => violations.push(text));
	await context.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) => {
			const report: unknown = Reflect.get(window, 'kanteraPolicyViolation');
			if (typeof report === 'function')
				Reflect.apply(report, undefined, [`${e.violatedDirective} blocked ${e.blockedURI} on ${location.pathname}`]);
		});
	});
	return context;
}

async function shoot(page: Page, name: string, language: string): Promise<void> {
	await page.screenshot({ path: `${SHOTS}/${name}.${language}.png`, fullPage: true });
}

async function createPublic(page: Page, title: string, tagline: string, language: 'en' | 'ja'): Promise<string> {
	const res = await page.request.post('/api/v1/presets', { data: presetContent({ title, tagline }, language) });
	expect(res.status()).toBe(201);
	const body: unknown = await res.json();
	const id = typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string' ? body.id : '';
	expect((await page.request.patch(`/api/v1/presets/${id}`, { data: { visibility: 'public' } })).status()).toBe(200);
	return id;
}

test('the preset screens in both languages, and moderation', async ({ browser }) => {
	test.setTimeout(180_000);
	const dataDir = process.env.KANTERA_E2E_DATA_DIR ?? '';
	const adminName = uniqueName('admin');
	// An administrator, made the way the README tells operators to (the e2e server's data directory).
	const made = spawnSync(
		process.execPath,
		[path.resolve('bin/kantera.js'), 'user', 'create', '--name', adminName, '--password-stdin', '--admin'],
		{
			input: `${PASSWORD}\n`,
			env: { PATH: process.env.PATH ?? '', KANTERA_DATA_DIR: dataDir },
			encoding: 'utf8'
		}
	);
	expect(made.status, made.stderr).toBe(0);

	for (const language of LANGUAGES) {
		const authorCtx = await contextIn(browser, language);
		const author = await authorCtx.newPage();
		await signUp(author, uniqueName(`writer${language}`)).catch(async () => {
			// The sign-up helper reads English headings; in Japanese just check we are signed in.
			await expect(author.getByRole('button', { name: 'サインアウト' })).toBeVisible();
		});
		const title = language === 'ja' ? `塩硝子の書庫 ${Date.now() % 100000}` : `Saltglass Archive ${Date.now() % 100000}`;
		const id = await createPublic(
			author,
			title,
			language === 'ja' ? '硝子の本と静かな書庫、ひとつの盗み。' : 'Glass books, quiet floors, one theft.',
			language
		);

		const anon = await (await contextIn(browser, language)).newPage();
		await anon.goto('/');
		await shoot(anon, 'landing', language);
		await anon.goto('/gallery');
		await expect(anon.getByRole('heading', { level: 1 })).toBeVisible();
		await shoot(anon, 'gallery-new', language);
		await anon.goto(`/gallery?q=${encodeURIComponent(language === 'ja' ? '書庫' : 'quiet floors')}`);
		await shoot(anon, 'gallery-search', language);
		await anon.goto(`/presets/${id}`);
		await shoot(anon, 'preset-signed-out', language);
		await anon.goto('/presets/sword-and-sorcery');
		await shoot(anon, 'preset-official', language);

		await author.goto(`/presets/${id}`);
		await shoot(author, 'preset-author', language);
		await author.goto(`/presets/${id}/edit`);
		await shoot(author, 'editor-edit', language);
		await author.goto('/presets/new');
		await author.locator('#f-title').fill(title);
		await author.locator('#f-secrets-0-markers').fill('glass');
		await author.locator('#f-tagline').fill('Glass everywhere.');
		await expect(author.locator('#f-tagline-warning')).toBeVisible();
		await author.getByRole('button', { name: language === 'ja' ? '保存' : 'Save', exact: true }).click();
		await expect(author.locator('.error-summary')).toBeVisible();
		await shoot(author, 'editor-errors', language);
		await author.goto('/presets');
		await author.locator('#import-file').setInputFiles({
			name: 'broken.json',
			mimeType: 'application/json',
			buffer: Buffer.from('{"spec": "chara_card_v9", "data": {"name": "x"}}')
		});
		await author.locator('form[action="?/import"] button[type="submit"]').click();
		// Why it was refused, in the reader's language.
		await expect(author.locator('#import-error')).toContainText(
			language === 'ja' ? '対応していないカードの spec です' : 'Unsupported card spec'
		);
		await shoot(author, 'my-presets', language);

		// A reader plays it: the Documents panel shows names only.
		const readerCtx = await contextIn(browser, language);
		const reader = await readerCtx.newPage();
		await signUp(reader, uniqueName(`reader${language}`)).catch(() => undefined);
		await reader.goto(`/presets/${id}`);
		await shoot(reader, 'preset-reader', language);
		// Seen is not owned: the editor and its form action refuse, with a status, not a server error.
		expect((await reader.goto(`/presets/${id}/edit`))?.status()).toBe(403);
		const origin = new URL(reader.url()).origin;
		const post = await reader.request.post(`/presets/${id}/edit?/save`, { form: { title: 'mine now' }, headers: { origin } });
		expect(post.status()).toBe(403);
		await reader.goto(`/presets/${id}`);
		await reader.locator('form[action="?/favorite"] button').click();
		await reader.goto('/gallery?shelf=favorites');
		await expect(reader.getByRole('link', { name: title })).toBeVisible();
		await shoot(reader, 'gallery-favorites', language);
		await reader.goto(`/presets/${id}`);
		await reader.locator('form[action="?/play"] button[type="submit"]').click();
		await expect(reader).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
		// The session opens on the world's own title card, then its prologue: the opening place and who is there.
		await expect(reader.getByTestId('title-card')).toContainText(title);
		await shoot(reader, 'play-title-card', language);
		await reader.keyboard.press('Enter');
		await expect(reader.getByTestId('line-text')).toContainText(language === 'ja' ? '閲覧室' : 'Reading Room');
		await expect(reader.getByTestId('title-card')).toBeHidden();
		await expect(reader.getByTestId('text-window')).toHaveAttribute('data-complete', 'true');
		await shoot(reader, 'play-prologue', language);
		await reader
			.getByRole('navigation', { name: language === 'ja' ? '記録とメニュー' : 'Records and menu' })
			.getByRole('link', { name: language === 'ja' ? '資料' : 'Documents' })
			.click();
		const docs = reader.getByRole('dialog', { name: language === 'ja' ? '資料' : 'Documents' });
		await expect(docs.getByText(language === 'ja' ? '(GM 専用)' : '(for the GM only)').first()).toBeVisible();
		await expect(docs.getByRole('link', { name: language === 'ja' ? '世界設定' : 'World Setting' })).toHaveCount(0);
		await shoot(reader, 'play-sealed-documents', language);

		// Moderation: the reader reports it, the administrator unlists it.
		await reader.goto(`/presets/${id}`);
		await reader.locator('details.report summary').click();
		await reader.locator('#report-reason').fill(language === 'ja' ? '他の作品の丸写しです。' : 'Copied from a published novel.');
		await reader.locator('form[action="?/report"] button').click();
		await expect(
			reader.getByRole('status').filter({ hasText: language === 'ja' ? '通報を確認します' : 'will look at your report' })
		).toBeVisible();

		const adminCtx = await contextIn(browser, language);
		const admin = await adminCtx.newPage();
		await signIn(admin, adminName);
		await admin.waitForURL((u) => !u.pathname.startsWith('/signin'));
		await admin.goto('/admin/reports');
		const row = admin.getByRole('row').filter({ hasText: title });
		await expect(row).toBeVisible();
		await shoot(admin, 'admin-reports', language);
		const reason = language === 'ja' ? '他の作品の丸写しのため。' : 'Copied from a published novel.';
		await row.getByLabel(language === 'ja' ? '理由（作者に表示されます）' : 'Reason (the author reads it)').fill(reason);
		await row.locator('form[action="?/takeDown"] button').click();
		await expect(admin.getByRole('row').filter({ hasText: title }).locator('form[action="?/takeDown"]')).toHaveCount(0);
		await anon.goto('/gallery');
		await expect(anon.getByRole('link', { name: title })).toHaveCount(0);
		expect((await anon.goto(`/presets/${id}`))?.status()).toBe(404);
		await author.goto(`/presets/${id}`);
		await expect(author.getByText(language === 'ja' ? '公開停止' : 'Taken down').first()).toBeVisible();
		// The author reads why and when, and appeals.
		await expect(author.getByRole('note')).toContainText(reason);
		await author.locator('#appeal').fill(language === 'ja' ? '自作です。' : 'It is my own text.');
		await author.locator('form[action="?/appeal"] button').click();
		await expect(
			author.getByRole('status').filter({ hasText: language === 'ja' ? '異議申し立てを管理者に送りました' : 'appeal was sent' })
		).toBeVisible();
		await shoot(author, 'preset-taken-down', language);
		// Private again: no link to a world nobody else can open.
		await expect(author.locator('input[name="visibility"][value="private"]')).toBeChecked();
		await admin.goto('/admin/reports');
		const takedown = admin.getByRole('row').filter({ hasText: title });
		await expect(takedown).toContainText(reason);
		await expect(takedown).toContainText(language === 'ja' ? '自作です。' : 'It is my own text.');
		await shoot(admin, 'admin-takedowns', language);
		await admin.goto('/admin/audit');
		await expect(admin.getByRole('row').filter({ hasText: title })).toContainText(
			language === 'ja' ? '世界観を公開停止' : 'took the world down'
		);
		await shoot(admin, 'admin-audit', language);
		for (const c of [authorCtx, readerCtx, adminCtx, anon.context()]) await c.close();
	}
	expect(violations).toEqual([]);
});

/**
 * The play screen on a server with no LLM configured (the default e2e server): a session from a world
 * still opens on its title card and prologue — they come from the preset, no LLM is called — and the
 * input says why nothing can be sent; the notice is a banner above the stage that can be hidden.
 */
import { test, expect } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, createSession } from './helpers';

const SHOTS = 'test-results/play/screens';

test('without an LLM the input is disabled and says why', async ({ page }) => {
	await signUp(page, uniqueName('nollmplay'));
	await createSession(page, 'No GM here', /Empty world/);
	const notice = page.getByRole('status').filter({ hasText: 'No LLM provider is configured.' });
	await expect(notice).toContainText('Set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama');
	await page.screenshot({ path: `${SHOTS}/desktop-en-no-llm.png` });
	const input = page.getByLabel('What do you do?');
	await expect(input).toBeDisabled();
	await expect(input).toHaveAccessibleDescription(/no LLM provider configured/);
	await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
	// An empty world has no title card: the window waits for the first line.
	await expect(page.getByTestId('title-card')).toHaveCount(0);
	await expect(page.getByTestId('text-window')).toContainText('The story begins with your first line.');
});

test('the first-run notice is a banner above the stage, never over it, hidden for the browser session by its button', async ({
	page,
	browser
}) => {
	await signUp(page, uniqueName('banner'));
	await createSession(page, 'Banner', /Empty world/);
	const banner = page.getByTestId('llm-banner');
	for (const size of [
		{ width: 1280, height: 800 },
		{ width: 390, height: 844 }
	]) {
		await page.setViewportSize(size);
		const [notice, stage] = await Promise.all([banner.boundingBox(), page.locator('.frame').boundingBox()]);
		expect(notice && stage && notice.y + notice.height).toBeLessThanOrEqual(stage?.y ?? 0);
	}
	await page.screenshot({ path: `${SHOTS}/phone-en-no-llm-banner.png` });
	// By the keyboard: the hide toggle is reached by Tab and set by Space.
	await page.locator('#llm-banner-hide').focus();
	await page.keyboard.press('Space');
	await expect(banner).toBeHidden();
	// The stage takes the whole screen again.
	expect((await page.locator('.frame').boundingBox())?.y).toBe(0);
	await page.reload();
	await expect(banner).toBeHidden();

	// Without JavaScript the same button hides it (the page as served, CSS only).
	const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
	const noJs = await plain.newPage();
	await noJs.goto(page.url());
	await expect(noJs.getByTestId('llm-banner')).toBeVisible();
	await noJs.getByText('Hide this notice').click();
	await expect(noJs.getByTestId('llm-banner')).toBeHidden();
	await plain.close();
});

test(
	'Create opens the new session on its title card, then the prologue tells the premise and brings the ' +
		'characters present on stage, with no LLM call',
	async ({ page }) => {
		// Whole pages: one Enter a page.
		await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
		await signUp(page, uniqueName('prologue'));
		await createSession(page, 'Salt and fog', /Vesca/);
		const card = page.getByTestId('title-card');
		await expect(card.getByRole('heading', { name: 'Vesca of the Black Salt' })).toBeVisible();
		await expect(card).toContainText('A sellsword, a city of thieves and priests, and sorcery that always takes its price.');
		await expect(card.getByRole('link', { name: 'Start' })).toBeFocused();
		await page.screenshot({ path: `${SHOTS}/desktop-en-title.png` });

		// Keyboard only from here: Enter starts, Enter reads on.
		await page.keyboard.press('Enter');
		await expect(card).toHaveCount(0);
		const window = page.getByTestId('text-window');
		await expect(window).toBeFocused();
		await expect(page.getByTestId('line-text')).toHaveText(/^Vesca is a walled port of thieves/);
		await expect(page.locator('[data-scene]').first()).toHaveAttribute('data-kind', 'interior');
		await expect(page.getByTestId('place-name')).toHaveText('The Crooked Lantern');
		await page.screenshot({ path: `${SHOTS}/desktop-en-prologue.png` });
		for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
		await expect(page.getByTestId('line-text')).toHaveText(/^The Crooked Lantern\. The low, smoky common room/);
		// The scene is longer than the window: its second page, then the first character.
		await page.keyboard.press('Enter');
		await expect(page.getByTestId('line-text')).toHaveText(/cold blue night outside\.$/);
		await page.keyboard.press('Enter');
		await expect(page.getByTestId('line-text')).toHaveText('Mirela — Keeper of the Crooked Lantern tavern.');
		await expect(page.locator('[data-slot="left"]')).toHaveAttribute('data-character', 'Mirela');
		await page.keyboard.press('Enter');
		await expect(page.getByTestId('line-text')).toHaveText('Sefa — Young thief of the Grey Hands.');
		await expect(page.locator('[data-slot="right"]')).toHaveAttribute('data-character', 'Sefa');
		// The screen reader hears each paragraph once it is complete.
		await expect(page.getByTestId('announcement')).toHaveText('Sefa — Young thief of the Grey Hands.');
		await page.screenshot({ path: `${SHOTS}/desktop-en-prologue-cast.png` });
		// The prologue is in the play log (and the backlog) like any reply.
		const response = await page.request.get(`${new URL(page.url()).pathname.replace('/sessions/', '/api/v1/sessions/')}/messages`);
		const log = v.parse(v.object({ messages: v.array(v.object({ role: v.string() })) }), await response.json());
		expect(log.messages.map((m) => m.role)).toEqual(['gm']);
	}
);

test('a Japanese story in an English UI is marked lang="ja", and the Japanese UI opens the same way', async ({ page }) => {
	await signUp(page, uniqueName('langja'));
	await page.goto('/', { waitUntil: 'networkidle' });
	await page.getByLabel('Title').fill('鉄の霧');
	await page.getByLabel('Language', { exact: true }).selectOption('ja');
	await page.getByRole('radio', { name: /Iron Walkers/ }).check();
	await page.getByRole('button', { name: 'Create' }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'en');
	await expect(page.getByTestId('title-card').locator('[lang="ja"]')).toContainText('鉄脚戦記');
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('line-text')).toHaveAttribute('lang', 'ja');
	await expect(page.getByTestId('place-name')).toHaveAttribute('lang', 'ja');

	// Forget what this browser read, so the session opens on its title card again.
	await page.evaluate(() => localStorage.clear());
	await page.goto('/');
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	// The notice of the missing provider, what to set included, is in the reader's language too.
	const notice = page.getByRole('status').filter({ hasText: 'LLM プロバイダーが設定されていません。' });
	await expect(notice).toContainText('OPENAI_API_KEY（Ollama など OpenAI 互換のサーバーなら OPENAI_BASE_URL と KANTERA_LLM_MODEL）');
	await expect(notice).not.toContainText('Set OPENAI_API_KEY');
	await page.screenshot({ path: `${SHOTS}/home-ja-no-llm.png` });
	await page.getByRole('link', { name: '鉄の霧', exact: true }).click();
	await expect(page.getByTestId('title-card').getByRole('link', { name: 'はじめる' })).toBeFocused();
	await page.screenshot({ path: `${SHOTS}/desktop-ja-title.png` });
	await page.keyboard.press('Enter');
	await expect(page.getByRole('navigation', { name: 'クイックメニュー' }).getByRole('link', { name: 'ログ' })).toBeVisible();
	await expect(page.getByRole('status').filter({ hasText: 'LLM プロバイダーが設定されていません。' })).toContainText(
		'KANTERA_LLM_PROVIDER で選びます'
	);
	await page.screenshot({ path: `${SHOTS}/desktop-ja-prologue.png` });
});

/**
 * Spend and usage as people see them, against the play server (mock LLM, a price for the mock model, session
 * and daily budgets): the settings panel's spend chart of this session, and the admin's usage page with its
 * charts, tables beside them and CSV export. Screenshots go to test-results/usage/ to be looked at.
 */
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { PASSWORD, sessionIdOf, setValue, signIn, signUp, uniqueName } from './helpers';
import { openSettings, readToEnd, say } from './play-helpers';
import { spawnSync } from 'node:child_process';

const SHOTS = 'test-results/usage';

/** `kantera user create` on the play server's databases, as an operator would run it next to the server. */
function createAccount(name: string, admin: boolean): number | null {
	const args = ['bin/kantera.js', 'user', 'create', '--name', name, '--password-stdin', ...(admin ? ['--admin'] : [])];
	const env = { PATH: process.env.PATH ?? '', KANTERA_DATA_DIR: path.join(process.env.KANTERA_E2E_DATA_DIR ?? '', 'play') };
	return spawnSync(process.execPath, args, { input: `${PASSWORD}\n`, env, encoding: 'utf8' }).status;
}

/** The reader's speed is instant in this browser: whole paragraphs, no waiting for the type-out. */
async function instantText(page: Page): Promise<void> {
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
}

/** Creates a session in Vesca (by the form's fields, in either display language), starts it from its title card and reads the prologue to its end. */
async function startGame(page: Page, title: string): Promise<string> {
	await page.goto('/', { waitUntil: 'networkidle' });
	await page.locator('#new-title').fill(title);
	await page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const id = sessionIdOf(page);
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.keyboard.press('Enter');
	await readToEnd(page);
	return id;
}

/** The spend API's count of metered turns, once the last turn's calls are in the books. */
async function meteredTurns(page: Page, id: string): Promise<number> {
	const body: { turns: unknown[] } = await (await page.request.get(`/api/v1/sessions/${id}/spend`)).json();
	return body.turns.length;
}

test('the player sees this session’s spend; the admin sees usage charts with their numbers and exports CSV', async ({ page }) => {
	// An admin of the play server, made with the CLI on its data directory (the first account may be another test's).
	const name = uniqueName('ops');
	expect(createAccount(name, true)).toBe(0);
	await signIn(page, name);
	await expect(page.getByTestId('nav-turns-left')).toHaveText(/of 50 turns left today/);
	await instantText(page);
	const id = await startGame(page, 'Ledger');
	// The site's header is not on the play screen: the turns left today are by the quick menu.
	await expect(page.getByTestId('play-turns-left')).toHaveText('· 50 of 50 turns left today');
	await say(page, 'I walk up to the north gate. #gate', 'Fog hangs over the north gate.');
	await say(page, 'I look around', 'You said: I look around');
	await say(page, 'I ask about the ships', 'You said: I ask about the ships');
	await expect(page.getByTestId('play-turns-left')).toHaveText('· 47 of 50 turns left today');
	await page.screenshot({ path: `${SHOTS}/play-turns-left-en.png` });
	// The spend panel reads when it is shown: open it once the third turn is in the books.
	await expect.poll(() => meteredTurns(page, id), { timeout: 20_000 }).toBe(3);

	const settings = await openSettings(page, 'Settings');
	// The free plan's model lock is in the same layer: no provider or model to pick.
	await expect(settings.getByText('On the free plan the game master is always openai/mock-model.')).toBeVisible();
	await expect(settings.getByLabel('Model', { exact: true })).toHaveCount(0);
	const spend = settings.getByTestId('spend-panel');
	// The panel reads its numbers when it comes into view: below the players and sound settings, it must be scrolled to.
	await spend.scrollIntoViewIfNeeded();
	await expect(spend.getByTestId('spend-turns-left')).toHaveText('47 of 50 turns left today');
	await expect(spend.getByText(/Prompt-cache hit rate: \d+%/)).toBeVisible();
	// The GM gave nothing away: the canon guard's counts of this session are there, both at 0.
	await expect(spend.getByTestId('spend-canon')).toHaveText('Canon guard — rewrites before you saw them: 0 · turns stopped: 0');
	// The chart's numbers, as a table a screen reader reads: one row per turn.
	const table = spend.getByRole('table', { name: 'Tokens per turn: cached input, uncached input and output' });
	await expect(table.getByRole('row')).toHaveCount(1 + 3);
	await expect(spend.getByRole('meter', { name: 'this session' })).toBeVisible();
	await expect(spend.getByRole('meter', { name: 'you, today' })).toBeVisible();
	await expect(spend.locator('canvas')).toHaveCount(1);
	await spend.scrollIntoViewIfNeeded();
	await spend.screenshot({ path: `${SHOTS}/spend-panel-en.png` });
	await page.screenshot({ path: `${SHOTS}/settings-drawer-en.png` });

	// The charts draw under the Content-Security-Policy: nothing is refused (the browser says so on the console).
	const refused: string[] = [];
	page.on('console', (m) => {
		if (m.type() === 'error') refused.push(m.text());
	});
	await page.goto('/admin/usage');
	await expect(page.getByRole('heading', { name: 'LLM usage' })).toBeVisible();
	await expect(page.getByRole('table', { name: 'Usage per provider and model' })).toContainText('openai/mock-model');
	await expect(page.getByRole('table', { name: 'Usage per user' })).toContainText(name);
	await expect(page.locator('figure canvas')).toHaveCount(5);
	await expect(page.getByRole('heading', { name: 'Canon guard (since each session began)' })).toBeVisible();
	await expect(page.getByTestId('canon-guard-totals')).toHaveText(
		/^All sessions — rewrites before the player saw them: \d+ · turns stopped: \d+$/
	);
	await page.screenshot({ path: `${SHOTS}/admin-usage.png`, fullPage: true });
	expect(refused).toEqual([]);

	const csv = await page.request.get(`/admin/usage/export?view=days`);
	expect(csv.headers()['content-type']).toContain('text/csv');
	const lines = (await csv.text()).trim().split('\r\n');
	expect(lines[0]).toBe(
		'day,provider,model,calls,input_tokens,cached_input_tokens,cache_write_tokens,output_tokens,cost_usd,failures,retries,p50_latency_ms,p95_latency_ms'
	);
	expect(lines.some((l) => /,openai,mock-model,\d+,/.test(l))).toBe(true);
});

test('in Japanese: the settings layer shows the spend panel and the free plan\u2019s fixed model in Japanese', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('spendja'));
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	const id = await startGame(page, '帳簿');
	await expect(page.getByTestId('play-turns-left')).toHaveText('· 今日の残り 50 / 50 ターン');
	await say(page, 'I walk up to the north gate. #gate', 'Fog hangs over the north gate.');
	await expect(page.getByTestId('play-turns-left')).toHaveText('· 今日の残り 49 / 50 ターン');
	await page.screenshot({ path: `${SHOTS}/play-turns-left-ja.png` });
	await expect.poll(() => meteredTurns(page, id), { timeout: 20_000 }).toBe(1);
	const settings = await openSettings(page, '設定');
	await expect(settings.getByText('フリープランでは GM は常に openai/mock-model です。')).toBeVisible();
	const spend = settings.getByTestId('spend-panel');
	// The panel reads its numbers when it comes into view: below the players and sound settings, it must be scrolled to.
	await spend.scrollIntoViewIfNeeded();
	await expect(spend.getByRole('heading', { name: 'このセッションの使用量' })).toBeVisible();
	await expect(spend.getByTestId('spend-turns-left')).toHaveText('今日の残り 49 / 50 ターン');
	await expect(spend.getByTestId('spend-canon')).toHaveText('設定ガード: 表示前の書き直し 0 回、止めたターン 0 回');
	await expect(spend.locator('canvas')).toHaveCount(1);
	await spend.scrollIntoViewIfNeeded();
	await spend.screenshot({ path: `${SHOTS}/spend-panel-ja.png` });
	await page.screenshot({ path: `${SHOTS}/settings-drawer-ja.png` });
});

test('an admin moves a player to plus on /admin/users; the player then has no turn quota', async ({ page, browser }) => {
	const admin = uniqueName('ops');
	const player = uniqueName('player');
	expect(createAccount(admin, true)).toBe(0);
	expect(createAccount(player, false)).toBe(0);
	await signIn(page, admin);
	await expect(page.getByText(`Signed in as ${admin}`)).toBeVisible();
	await page.goto('/admin/users');
	await page.getByLabel(`Tier of ${player}`, { exact: true }).selectOption('plus');
	await page.getByRole('button', { name: `Set tier of ${player}` }).click();
	await expect(page.getByText(`${player} is now on the Plus tier.`)).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/admin-users.png`, fullPage: true });

	const other = await browser.newPage();
	await signIn(other, player);
	await expect(other.getByText(`Signed in as ${player}`)).toBeVisible();
	// No quota on plus: nothing to count down in the header.
	await expect(other.getByTestId('nav-turns-left')).toHaveCount(0);
	await other.goto('/account');
	await expect(other.getByTestId('tier')).toHaveText('Plus');
	await other.close();
});

test('the usage page is not there for a player who is not an admin', async ({ page, request }) => {
	const name = uniqueName('player');
	expect(createAccount(name, false)).toBe(0);
	await signIn(page, name);
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
	expect((await page.goto('/admin/usage'))?.status()).toBe(404);
	expect((await page.request.get('/admin/usage/export?view=users')).status()).toBe(404);
	expect((await request.get('/admin/users')).url()).toContain('/signin');
});

test('the operator pages speak Japanese, and at 1,100 px the header shows an admin’s whole name', async ({ page }) => {
	const admin = uniqueName('operator-hanako');
	expect(createAccount(admin, true)).toBe(0);
	await page.setViewportSize({ width: 1100, height: 800 });
	await signIn(page, admin);
	await expect(page.getByText(`Signed in as ${admin}`)).toBeVisible();
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	const who = page.locator('header .who');
	await expect(who).toContainText(`${admin} でサインイン中（管理者）`);
	// Not cut short: the name's box holds all of its text.
	expect(await who.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
	await page.locator('header').screenshot({ path: `${SHOTS}/header-1100-ja.png` });

	await page.goto('/admin/usage');
	await expect(page.getByRole('heading', { name: 'LLM の利用状況' })).toBeVisible();
	await expect(page.getByRole('navigation', { name: '管理ページ' })).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/admin-usage-ja.png`, fullPage: true });
	await page.goto('/admin/users');
	await expect(page.getByRole('columnheader', { name: 'プラン' })).toBeVisible();
	await expect(page.getByRole('button', { name: `${admin} のプランを設定` })).toBeVisible();
	await page.goto('/settings/tokens');
	await expect(page.getByRole('heading', { name: '個人用 API トークン' })).toBeVisible();
	await page.getByLabel('名前').fill('ノートPC');
	await page.getByRole('button', { name: 'トークンを作成' }).click();
	await expect(page.getByText('トークン「ノートPC」を作成しました。')).toBeVisible();
	await expect(page.getByRole('button', { name: 'ノートPC を無効にする' })).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/tokens-ja.png`, fullPage: true });
	// The server's field errors are in the reader's language too: a control character the browser lets through, and
	// (with the browser's own checks off, as a client without them) too many days.
	await setValue(page, '名前', 'ノート\u0007');
	await page.getByRole('button', { name: 'トークンを作成' }).click();
	await expect(page.getByText('トークンの名前に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。')).toBeVisible();
	await page.getByLabel('名前').fill('CI');
	await page.getByLabel('有効期限（日数。空欄なら無期限）').fill('4000');
	await page.locator('form[action="?/create"]').evaluate((form) => form.setAttribute('novalidate', ''));
	await page.getByRole('button', { name: 'トークンを作成' }).click();
	await expect(page.getByText('有効期限は 3650 日までです。')).toBeVisible();
	await expect(page.getByLabel('有効期限（日数。空欄なら無期限）')).toHaveAttribute('aria-invalid', 'true');
	await page.screenshot({ path: `${SHOTS}/tokens-error-ja.png`, fullPage: true });
});

/**
 * Spend and usage as people see them, against the play server (mock LLM, a price for the mock model, session
 * and daily budgets): the settings panel's spend chart of this session, and the admin's usage page with its
 * charts, tables beside them and CSV export. Screenshots go to test-results/usage/ to be looked at.
 */
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { PASSWORD, signIn, uniqueName } from './helpers';
import { spawnSync } from 'node:child_process';

const SHOTS = 'test-results/usage';

/** `kantera user create` on the play server's databases, as an operator would run it next to the server. */
function createAccount(name: string, admin: boolean): number | null {
	const args = ['bin/kantera.js', 'user', 'create', '--name', name, '--password-stdin', ...(admin ? ['--admin'] : [])];
	const env = { PATH: process.env.PATH ?? '', KANTERA_DATA_DIR: path.join(process.env.KANTERA_E2E_DATA_DIR ?? '', 'play') };
	return spawnSync(process.execPath, args, { input: `${PASSWORD}\n`, env, encoding: 'utf8' }).status;
}

async function startGame(page: Page, title: string): Promise<void> {
	await page.goto('/');
	await page.getByLabel('Title').fill(title);
	await page.getByRole('radio', { name: /Vesca|sword/i }).check();
	await page.getByRole('button', { name: 'Create' }).click();
	await page.getByRole('link', { name: title, exact: true }).click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	await page.getByLabel('Text speed').selectOption('instant');
}

/** Sends a line and waits until the GM's reply (its first words) is on the stage and the turn is over. */
async function say(page: Page, text: string, reply: string): Promise<void> {
	await page.getByLabel('What do you do?').fill(text);
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByTestId('text-window')).toContainText(reply, { timeout: 20_000 });
	await expect(page.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
}

test('the player sees this session’s spend; the admin sees usage charts with their numbers and exports CSV', async ({ page }) => {
	// An admin of the play server, made with the CLI on its data directory (the first account may be another test's).
	const name = uniqueName('ops');
	expect(createAccount(name, true)).toBe(0);
	await signIn(page, name);
	await expect(page.getByTestId('nav-turns-left')).toHaveText(/of 50 turns left today/);
	await startGame(page, 'Ledger');
	await say(page, '#gate I walk up to the gate', 'Fog hangs over the north gate.');
	await say(page, 'I look around', 'You said: I look around');
	await say(page, 'I ask about the ships', 'You said: I ask about the ships');
	// The spend panel reads when it is shown: open it once the third turn is in the books.
	const id = /\/sessions\/([a-z2-7]{20})$/.exec(page.url())?.[1] ?? '';
	await expect.poll(async () => ((await (await page.request.get(`/api/v1/sessions/${id}/spend`)).json()) as { turns: unknown[] }).turns.length, { timeout: 20_000 }).toBe(3);

	await page.getByRole('tab', { name: 'Settings' }).click();
	const spend = page.getByTestId('spend-panel');
	await expect(spend.getByTestId('spend-turns-left')).toHaveText('47 of 50 turns left today');
	await expect(spend.getByText(/Prompt-cache hit rate: \d+%/)).toBeVisible();
	// The chart's numbers, as a table a screen reader reads: one row per turn.
	const table = spend.getByRole('table', { name: 'Tokens per turn: cached input, uncached input and output' });
	await expect(table.getByRole('row')).toHaveCount(1 + 3);
	await expect(spend.getByRole('meter', { name: 'this session' })).toBeVisible();
	await expect(spend.getByRole('meter', { name: 'you, today' })).toBeVisible();
	await expect(spend.locator('canvas')).toHaveCount(1);
	await spend.screenshot({ path: `${SHOTS}/spend-panel.png` });

	await page.goto('/admin/usage');
	await expect(page.getByRole('heading', { name: 'LLM usage' })).toBeVisible();
	await expect(page.getByRole('table', { name: 'Usage per provider and model' })).toContainText('openai/mock-model');
	await expect(page.getByRole('table', { name: 'Usage per user' })).toContainText(name);
	await expect(page.locator('figure canvas')).toHaveCount(5);
	await page.screenshot({ path: `${SHOTS}/admin-usage.png`, fullPage: true });

	const csv = await page.request.get(`/admin/usage/export?view=days`);
	expect(csv.headers()['content-type']).toContain('text/csv');
	const lines = (await csv.text()).trim().split('\r\n');
	expect(lines[0]).toBe('day,provider,model,calls,input_tokens,cached_input_tokens,cache_write_tokens,output_tokens,cost_usd,failures,retries,p50_latency_ms,p95_latency_ms');
	expect(lines.some((l) => /,openai,mock-model,\d+,/.test(l))).toBe(true);
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
	await expect(page.getByText(`${player} is now on the plus tier.`)).toBeVisible();
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

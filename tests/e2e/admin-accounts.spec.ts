/**
 * An administrator acts on an account from /admin/users, in English and in Japanese, desktop and phone: suspends it
 * (the player's open browser is signed out and sign-in says why), lifts the suspension, makes a password-reset link
 * the player opens to set a new password, deletes the account after typing its name; every act is in the audit log,
 * which downloads as CSV. Screenshots under test-results/admin/.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PASSWORD, signIn, uniqueName } from './helpers';

const SHOTS = 'test-results/admin';

function createAccount(name: string, admin: boolean): void {
	const args = [path.resolve('bin/kantera.js'), 'user', 'create', '--name', name, '--password-stdin', ...(admin ? ['--admin'] : [])];
	const env = { PATH: process.env.PATH ?? '', KANTERA_DATA_DIR: process.env.KANTERA_E2E_DATA_DIR ?? '' };
	expect(spawnSync(process.execPath, args, { input: `${PASSWORD}\n`, env, encoding: 'utf8' }).status).toBe(0);
}

async function pageIn(browser: Browser, language: 'en' | 'ja', width = 1100): Promise<Page> {
	const context = await browser.newContext({ viewport: { width, height: 900 } });
	const url = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1');
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	return context.newPage();
}

const WORDS = {
	en: {
		suspend: (n: string) => `Suspend ${n}`,
		unsuspend: (n: string) => `Lift the suspension of ${n}`,
		reset: (n: string) => `Make a password-reset link for ${n}`,
		suspended: 'This account is suspended',
		newPassword: 'New password',
		setPassword: 'Set the password',
		gone: 'This link does not work',
		deleteSummary: 'Delete…',
		confirm: (n: string) => `Type ${n} to confirm`,
		deleteButton: (n: string) => `Delete ${n} and all their data`,
		deleted: 'and all their data are deleted',
		audit: ['suspended the account', 'lifted the suspension', 'made a password-reset link', 'deleted the account and its data']
	},
	ja: {
		suspend: (n: string) => `${n} を停止`,
		unsuspend: (n: string) => `${n} の停止を解除`,
		reset: (n: string) => `${n} のパスワード再設定リンクを発行`,
		suspended: 'このアカウントは停止されています',
		newPassword: '新しいパスワード',
		setPassword: 'パスワードを設定',
		gone: 'このリンクは使えません',
		deleteSummary: '削除…',
		confirm: (n: string) => `確認のため ${n} と入力`,
		deleteButton: (n: string) => `${n} とそのデータをすべて削除`,
		deleted: 'とそのデータをすべて削除しました',
		audit: ['アカウントを停止', 'アカウント停止を解除', 'パスワード再設定リンクを発行', 'アカウントとデータを削除']
	}
} as const;

for (const language of ['en', 'ja'] as const) {
	test(`an administrator suspends, resets and deletes an account (${language})`, async ({ browser }) => {
		test.setTimeout(120_000);
		const w = WORDS[language];
		const adminName = uniqueName(`ops${language}`);
		const playerName = uniqueName(`pl${language}`);
		createAccount(adminName, true);
		createAccount(playerName, false);

		const player = await pageIn(browser, language);
		await signIn(player, playerName);
		await player.waitForURL((u) => !u.pathname.startsWith('/signin'));
		const admin = await pageIn(browser, language);
		await signIn(admin, adminName);
		await admin.waitForURL((u) => !u.pathname.startsWith('/signin'));

		// Suspend: the player's browser is out at its next page, and signing in says why.
		await admin.goto('/admin/users');
		await admin.getByRole('button', { name: w.suspend(playerName) }).click();
		await expect(admin.getByRole('row').filter({ hasText: playerName })).toContainText(language === 'ja' ? '停止中' : 'Suspended since');
		await admin.screenshot({ path: `${SHOTS}/users-suspended.${language}.png`, fullPage: true });
		await player.goto('/');
		await expect(
			player.getByRole('navigation').getByRole('link', { name: language === 'ja' ? 'サインイン' : 'Sign in', exact: true })
		).toBeVisible();
		await signIn(player, playerName);
		await expect(player.getByRole('alert')).toContainText(w.suspended);
		await admin.getByRole('button', { name: w.unsuspend(playerName) }).click();
		await expect(admin.getByRole('button', { name: w.suspend(playerName) })).toBeVisible();

		// A reset link, shown once, works once.
		await admin.getByRole('button', { name: w.reset(playerName) }).click();
		const link = await admin.locator('input.reset-url').inputValue();
		expect(link).toMatch(/\/reset-password\/[\w-]{40,}$/);
		await admin.screenshot({ path: `${SHOTS}/users-reset-link.${language}.png`, fullPage: true });
		const phone = await pageIn(browser, language, 390);
		await phone.goto(link);
		await expect(phone.getByText(playerName)).toBeVisible();
		await phone.getByLabel(w.newPassword).fill('a brand new secret');
		await phone.getByRole('button', { name: w.setPassword }).click();
		await expect(phone.getByRole('status').filter({ hasText: playerName })).toBeVisible();
		await phone.screenshot({ path: `${SHOTS}/reset-done.${language}.png`, fullPage: true });
		await phone.goto(link);
		await expect(phone.getByRole('alert')).toContainText(w.gone);
		await signIn(player, playerName, 'a brand new secret');
		await player.waitForURL((u) => !u.pathname.startsWith('/signin'));

		// Delete, after typing the name.
		const row = admin.getByRole('row').filter({ hasText: playerName });
		await row.getByText(w.deleteSummary).click();
		await row.getByLabel(w.confirm(playerName)).fill(playerName);
		await row.getByRole('button', { name: w.deleteButton(playerName) }).click();
		await expect(admin.getByRole('status').filter({ hasText: w.deleted })).toBeVisible();
		await expect(admin.getByRole('row').filter({ hasText: playerName })).toHaveCount(0);
		await player.goto('/');
		await expect(
			player.getByRole('navigation').getByRole('link', { name: language === 'ja' ? 'サインイン' : 'Sign in', exact: true })
		).toBeVisible();

		// The audit log says it all, and downloads as CSV.
		await admin.goto('/admin/audit');
		const entries = admin.getByRole('row').filter({ hasText: playerName });
		for (const what of w.audit) await expect(entries.filter({ hasText: what }).first()).toBeVisible();
		await admin.screenshot({ path: `${SHOTS}/audit.${language}.png`, fullPage: true });
		const csv = await (await admin.request.get('/admin/audit/export')).text();
		expect(csv.split('\r\n')[0]).toBe('at,admin,action,target_kind,target_id,target_name,detail');
		expect(csv).toContain(`,delete_account,user,`);
		await admin.setViewportSize({ width: 390, height: 844 });
		await admin.goto('/admin/users');
		await admin.screenshot({ path: `${SHOTS}/users-phone.${language}.png`, fullPage: true });
		for (const p of [player, admin, phone]) await p.context().close();
	});
}

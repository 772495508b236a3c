/**
 * The sign-up page follows the reader's language (the browser's Accept-Language here): its text, its
 * field errors and a refused name. English stays the default.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp, signOut } from './helpers';

async function submit(page: Page, labels: { name: string; password: string; submit: string }, name: string, password: string) {
	await page.goto('/signup', { waitUntil: 'networkidle' });
	await page.getByLabel(labels.name).fill(name);
	await page.getByLabel(labels.password).fill(password);
	await page.getByRole('button', { name: labels.submit }).click();
}

test.describe('for a Japanese reader', () => {
	test.use({ locale: 'ja-JP' });

	test('the sign-up page, its field errors and a taken name are in Japanese', async ({ page }) => {
		await page.goto('/signup');
		await expect(page).toHaveTitle('新規登録 · Kantera');
		await expect(page.getByRole('heading', { name: 'アカウントを作る' })).toBeVisible();
		await expect(page.getByText('3〜32 文字。使えるのは英字・数字・「_」「-」「.」です。')).toBeVisible();
		await expect(page.getByRole('link', { name: 'サインイン', exact: true }).last()).toHaveAttribute('href', '/signin');

		const labels = { name: 'ユーザー名', password: 'パスワード', submit: 'アカウントを作る' };
		await submit(page, labels, 'no spaces allowed', 'short');
		await expect(page.locator('#name-error')).toHaveText('ユーザー名に使えるのは英字・数字・「_」「-」「.」だけです。');
		await expect(page.locator('#password-error')).toHaveText('パスワードは 8 文字以上にしてください。');
		await expect(page.getByLabel('ユーザー名')).toHaveValue('no spaces allowed');
		await expect(page.getByLabel('ユーザー名')).toHaveAttribute('aria-invalid', 'true');

		const name = uniqueName('hanako');
		await signUpJa(page, name);
		await page.context().clearCookies();
		await submit(page, labels, name, 'correct horse battery');
		await expect(page.locator('#name-error')).toHaveText(`ユーザー名「${name}」はすでに使われています。`);
	});
});

test('for an English reader the sign-up page and a taken name are in English', async ({ page }) => {
	await page.goto('/signup');
	await expect(page).toHaveTitle('Sign up · Kantera');
	await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
	await expect(page.getByText('3–32 characters: letters, digits, "_", "-" and ".".')).toBeVisible();
	await expect(page.getByText('Already have an account?')).toBeVisible();

	const name = uniqueName('taro');
	await signUp(page, name);
	await signOut(page);
	await submit(page, { name: 'Username', password: 'Password', submit: 'Create account' }, name, 'correct horse battery');
	await expect(page.locator('#name-error')).toHaveText(`The username "${name}" is already taken.`);
});

test.describe('a Japanese reader elsewhere', () => {
	test.use({ locale: 'ja-JP' });

	test('the error page and the sign-out page are in Japanese', async ({ page }) => {
		await page.goto('/no-such-page');
		await expect(page.getByRole('heading', { name: '見つかりません' })).toBeVisible();
		await expect(page.getByText('このアドレスには何もありません。')).toBeVisible();
		await expect(page.getByRole('link', { name: 'セッション一覧に戻る' })).toBeVisible();

		await signUpJa(page, uniqueName('jiro'));
		await page.goto('/signout');
		await expect(page.getByRole('heading', { name: 'サインアウト' })).toBeVisible();
	});
});

async function signUpJa(page: Page, name: string) {
	await submit(page, { name: 'ユーザー名', password: 'パスワード', submit: 'アカウントを作る' }, name, 'correct horse battery');
	await expect(page).toHaveURL(/\/$/);
}

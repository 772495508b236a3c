/** Test-data factories for the browser tests: unique accounts, and the steps every test repeats. */
import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A valid, unique username (3–32 chars of [A-Za-z0-9_.-]). */
export function uniqueName(prefix: string): string {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}${counter}`.slice(0, 32);
}

export const PASSWORD = 'correct horse battery';

/**
 * Opens a page and lets it finish loading its scripts: text typed into a form before the page has
 * hydrated can be reset by the hydration (seen with the sign-up form on a busy machine).
 */
async function openForm(page: Page, path: string): Promise<void> {
	await page.goto(path, { waitUntil: 'networkidle' });
}

export async function signUp(page: Page, name: string, password = PASSWORD): Promise<void> {
	await openForm(page, '/signup');
	// The form reads in the browser's language (the headings checked below are English only).
	await page.getByLabel(/^(Username|ユーザー名)$/).fill(name);
	await page.getByLabel(/^(Password|パスワード)$/).fill(password);
	await page.getByRole('button', { name: /^(Create account|アカウントを作る)$/ }).click();
	await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
}

/** Signs in through the form, in whichever language the browser's cookie picked. */
export async function signIn(page: Page, name: string, password = PASSWORD): Promise<void> {
	await openForm(page, '/signin');
	await page.getByLabel(/^(Username|ユーザー名)$/).fill(name);
	await page.getByLabel(/^(Password|パスワード)$/).fill(password);
	await page.getByRole('button', { name: /^(Sign in|サインイン)$/ }).click();
}

export async function signOut(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
}

/** The session id in a play page's URL. */
export function sessionIdOf(page: Page): string {
	const id = /\/sessions\/([a-z2-7]{20})(?:[?#]|$)/.exec(page.url())?.[1];
	if (!id) throw new Error(`not a play page: ${page.url()}`);
	return id;
}

/** Puts a value a keyboard cannot type (a NUL…) into a labelled field, as a script or a crafted post would. */
export async function setValue(page: Page, label: string, value: string): Promise<void> {
	await page.getByLabel(label).evaluate((el, v) => {
		if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.value = v;
	}, value);
}

/**
 * Creates a session from the home page (in `world`, a radio button's name, or the default one) and
 * returns its id. Create opens the new session's play page.
 */
export async function createSession(page: Page, title: string, world?: RegExp): Promise<string> {
	await openForm(page, '/');
	await page.getByLabel('Title').fill(title);
	if (world) await page.getByRole('radio', { name: world }).check();
	await page.getByRole('button', { name: 'Create' }).click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	return sessionIdOf(page);
}

/** Test-data factories for the browser tests: unique accounts, and the steps every test repeats. */
import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A valid, unique username (3–32 chars of [A-Za-z0-9_.-]). */
export function uniqueName(prefix: string): string {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}${counter}`.slice(0, 32);
}

export const PASSWORD = 'correct horse battery';

export async function signUp(page: Page, name: string, password = PASSWORD): Promise<void> {
	await page.goto('/signup');
	await page.getByLabel('Username').fill(name);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Create account' }).click();
	await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();
	await expect(page.getByText(`Signed in as ${name}`)).toBeVisible();
}

export async function signIn(page: Page, name: string, password = PASSWORD): Promise<void> {
	await page.goto('/signin');
	await page.getByLabel('Username').fill(name);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
}

/** Creates a session from the home page and returns its id (from the link). */
export async function createSession(page: Page, title: string): Promise<string> {
	await page.goto('/');
	await page.getByLabel('Title').fill(title);
	await page.getByRole('button', { name: 'Create' }).click();
	const link = page.getByRole('link', { name: title, exact: true });
	await expect(link).toBeVisible();
	const href = await link.getAttribute('href');
	const id = /^\/sessions\/([a-z2-7]{20})$/.exec(href ?? '')?.[1];
	if (!id) throw new Error(`unexpected session link ${href}`);
	return id;
}

/** Puts a value a keyboard cannot type (a NUL…) into a labelled field, as a script or a crafted post would. */
export async function setValue(page: Page, label: string, value: string): Promise<void> {
	await page.getByLabel(label).evaluate((el, v) => {
		if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.value = v;
	}, value);
}

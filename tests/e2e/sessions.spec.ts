import { test, expect } from '@playwright/test';
import { uniqueName, signUp, createSession } from './helpers';

test('create, open, rename and delete a play session', async ({ page }) => {
	await signUp(page, uniqueName('gm'));
	await expect(page.getByText('No sessions yet.')).toBeVisible();

	// Create opens the new session.
	const id = await createSession(page, 'Night watch');
	await expect(page).toHaveTitle('Night watch · Kantera');
	await page.goto('/');
	await page.getByRole('link', { name: 'Night watch', exact: true }).click();
	await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));

	await page.goto('/');
	// An empty title is refused with a message, and nothing changes.
	const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Night watch', exact: true }) });
	await row.getByLabel('New title for Night watch').fill('   ');
	await row.getByRole('button', { name: 'Rename' }).click();
	await expect(page.getByText('Enter a title.')).toBeVisible();
	await expect(page.getByRole('link', { name: 'Night watch', exact: true })).toBeVisible();

	await row.getByLabel('New title for Night watch').fill('北門の夜警');
	await row.getByRole('button', { name: 'Rename' }).click();
	await expect(page.getByRole('link', { name: '北門の夜警', exact: true })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Night watch', exact: true })).toHaveCount(0);

	await page.getByRole('link', { name: 'Delete…' }).click();
	await expect(page.getByRole('heading', { name: 'Delete “北門の夜警”?' })).toBeVisible();
	// Cancel leaves it alone.
	await page.getByRole('link', { name: 'Cancel' }).click();
	await expect(page.getByRole('link', { name: '北門の夜警', exact: true })).toBeVisible();

	await page.getByRole('link', { name: 'Delete…' }).click();
	await page.getByRole('button', { name: 'Delete session' }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByText('No sessions yet.')).toBeVisible();
	const gone = await page.goto(`/sessions/${id}`);
	expect(gone?.status()).toBe(404);
});

test("another user's session answers 404", async ({ page, browser }) => {
	await signUp(page, uniqueName('owner'));
	const id = await createSession(page, 'Private campaign');

	const other = await browser.newContext();
	try {
		const intruder = await other.newPage();
		await signUp(intruder, uniqueName('intruder'));
		for (const path of [`/sessions/${id}`, `/sessions/${id}/delete`]) {
			const response = await intruder.goto(path);
			expect(response?.status()).toBe(404);
			await expect(intruder.getByRole('heading', { name: 'Not found' })).toBeVisible();
			await expect(intruder.getByText('Private campaign')).toHaveCount(0);
		}
		// A forged delete is refused the same way and the owner still has the session.
		const forged = await intruder.request.post(`/sessions/${id}/delete`, { form: {}, headers: { origin: new URL(intruder.url()).origin } });
		expect(forged.status()).toBe(404);
		await expect(intruder.getByRole('link', { name: 'Private campaign' })).toHaveCount(0);
	} finally {
		await other.close();
	}
	await page.goto('/');
	await expect(page.getByRole('link', { name: 'Private campaign', exact: true })).toBeVisible();
});

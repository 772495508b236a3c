/**
 * What the API refuses, on the play screen, in the reader's language: the save sheet refusing a slot
 * name and the documents drawer refusing a title, each with a control character no keyboard types (as
 * a paste would bring). The API answers in English with a code; the page words the code. Screenshots
 * in both languages and both sizes for a person to look at.
 */
import { test, expect, type Locator } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, createSession } from './helpers';

const SHOTS = 'test-results/play/errors';

const WORDS = {
	en: {
		save: 'The name contains a control character (such as NUL); only tabs and line breaks are allowed.',
		document: 'Could not save: The title contains a control character (such as NUL); only tabs and line breaks are allowed.',
		documents: 'Documents',
		saveButton: 'Save'
	},
	ja: {
		save: '名前に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。',
		document: '保存できませんでした：タイトルに制御文字（NUL など）が入っています。使えるのはタブと改行だけです。',
		documents: '資料',
		saveButton: '保存'
	}
} as const;

const DocumentList = v.object({ documents: v.array(v.object({ id: v.number(), title: v.string(), sealed: v.optional(v.boolean()) })) });

/** Puts a value into a bound field as a paste would: the page's state follows the input event. */
async function paste(field: Locator, value: string): Promise<void> {
	await field.evaluate((el, text) => {
		if (!(el instanceof HTMLInputElement)) throw new Error('not an input');
		el.value = text;
		el.dispatchEvent(new Event('input', { bubbles: true }));
	}, value);
}

test('the save sheet and the documents drawer word the server’s refusals in the reader’s language', async ({ page, baseURL }) => {
	test.slow();
	await signUp(page, uniqueName('refusal'));
	const id = await createSession(page, 'Refusals', /Vesca/);
	const listed = v.parse(DocumentList, await (await page.request.get(`/api/v1/sessions/${id}/documents`)).json());
	const doc = listed.documents.find((d) => !d.sealed);
	if (!doc) throw new Error('the world has no document to edit');

	for (const language of ['en', 'ja'] as const) {
		await page.context().addCookies([{ name: 'kantera_lang', value: language, url: baseURL ?? '' }]);
		const words = WORDS[language];
		for (const device of [
			{ name: 'desktop', width: 1366, height: 768 },
			{ name: 'phone', width: 390, height: 844 }
		]) {
			await page.setViewportSize({ width: device.width, height: device.height });
			// A query of its own per visit: a full load that opens the sheet from the address.
			await page.goto(`/sessions/${id}?shot=${language}-${device.name}#saves`);
			const sheet = page.getByTestId('save-slots');
			await expect(sheet).toBeVisible();
			await paste(sheet.locator('#save-name'), 'Harbour\u0007');
			await sheet.locator('form button[type="submit"]').click();
			await expect(sheet.getByRole('alert')).toHaveText(words.save);
			await expect(sheet.getByTestId('save-slot')).toHaveCount(0);
			await page.screenshot({ path: `${SHOTS}/save-name-${language}-${device.name}.png` });

			await page.goto(`/sessions/${id}?doc=${doc.id}&edit#documents`);
			const drawer = page.getByRole('dialog', { name: words.documents });
			const title = drawer.locator('#doc-title');
			await expect(title).toHaveValue(doc.title);
			await paste(title, `${doc.title}\u0007`);
			await drawer.getByRole('button', { name: words.saveButton, exact: true }).click();
			await expect(drawer.getByRole('alert')).toHaveText(words.document);
			await page.screenshot({ path: `${SHOTS}/document-title-${language}-${device.name}.png` });
		}
	}
	// Nothing was written: the title is as it was.
	const after = v.parse(DocumentList, await (await page.request.get(`/api/v1/sessions/${id}/documents`)).json());
	expect(after.documents.find((d) => d.id === doc.id)?.title).toBe(doc.title);
});

/**
 * Time travel on the play screen, in Chromium against the built app and the scripted mock LLM: Undo,
 * Reroll and Edit on the last exchange (the quick menu's first items, and the keys U, R, E), the Save / Load sheet with its slot list, Q.Save / Q.Load, and
 * a screenshot of each in both languages and both sizes for a person to look at.
 */
import { test, expect, type Page } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, createSession, sessionIdOf } from './helpers';
import { quickItem } from './play-helpers';

const SHOTS = 'test-results/play/timetravel';

const input = (page: Page) => page.locator('#turn-input');
/** Undo (U), Reroll (R) or Edit (E) on the quick menu, in either language. */
const turnAction = (page: Page, key: 'U' | 'R' | 'E') => page.locator(`nav.quick button[aria-keyshortcuts="${key}"]`);
/** The last turn can be taken back: Undo is on. */
const undoable = (page: Page) => expect(turnAction(page, 'U')).not.toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });

/** Advances the reader (Enter) until the input is back: as many lines as the screen holds, however late they arrive. */
async function readToEnd(page: Page): Promise<void> {
	await expect(async () => {
		if (await input(page).isVisible()) return;
		await page.keyboard.press('Enter');
		await expect(input(page)).toBeVisible({ timeout: 500 });
		// A phone's window holds two lines a page under the wrapped quick menu: the prologue is many pages.
	}).toPass({ timeout: 60_000 });
}

async function say(page: Page, text: string): Promise<void> {
	// After an undo or a load the screen is drawn afresh and reopens on the prologue: read on to the line again.
	await expect(async () => {
		await readToEnd(page);
		await input(page).fill(text, { timeout: 1_000 });
	}).toPass({ timeout: 30_000 });
	await input(page).press('Enter');
	// The player's line is in the log once the turn has committed.
	await expect.poll(() => playerLines(page), { timeout: 20_000 }).toContain(text);
	await undoable(page);
	await readToEnd(page);
}

const Messages = v.object({ messages: v.array(v.object({ role: v.string(), body: v.string(), turnId: v.nullish(v.string()) })) });

/** The session's log, oldest first. */
async function messages(page: Page): Promise<v.InferOutput<typeof Messages>['messages']> {
	const res = await page.request.get(`/api/v1/sessions/${sessionIdOf(page)}/messages`);
	return v.parse(Messages, await res.json()).messages;
}

/** The player's lines in the backlog, oldest first. */
async function playerLines(page: Page): Promise<string[]> {
	return (await messages(page)).flatMap((m) => (m.role === 'player' ? [m.body] : []));
}

/** The turn of the last exchange when it is complete (the player's line and the GM's reply of one turn), else null. */
async function lastExchange(page: Page): Promise<{ turnId: string; line: string } | null> {
	const [player, gm] = (await messages(page)).slice(-2);
	if (player?.role !== 'player' || gm?.role !== 'gm' || !player.turnId || player.turnId !== gm.turnId) return null;
	return { turnId: player.turnId, line: player.body };
}

/** Waits until the last exchange is `line` answered in a turn other than `replaced`, and reads the screen to its end. */
async function settled(page: Page, line: string, replaced: string | undefined): Promise<void> {
	await expect
		.poll(
			async () => {
				const last = await lastExchange(page);
				return last !== null && last.line === line && last.turnId !== replaced;
			},
			{ timeout: 20_000 }
		)
		.toBe(true);
	await undoable(page);
	await readToEnd(page);
}

test('undo, reroll and edit the last turn; save, quick save and load a slot as a new session', async ({ page }) => {
	test.slow();
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	await signUp(page, uniqueName('time'));
	await createSession(page, 'Time', /Vesca/);
	await page.keyboard.press('Enter');
	await readToEnd(page);
	// Nothing to undo before the first turn.
	const quickMenu = page.getByRole('navigation', { name: 'Quick menu' });
	await expect(quickMenu.getByRole('button', { name: 'Undo' })).toHaveAttribute('aria-disabled', 'true');

	await say(page, 'I look around.');
	expect(await playerLines(page)).toEqual(['I look around.']);

	// Undo: the exchange is gone, the screen shows the session afresh.
	await quickMenu.getByRole('button', { name: 'Undo' }).click();
	await expect(quickMenu.getByRole('button', { name: 'Undo' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
	await page.waitForLoadState('load');
	expect(await playerLines(page)).toEqual([]);
	await readToEnd(page);

	// Edit (E, from the keyboard): the line comes back in the window's entry; Esc leaves it as it was.
	await say(page, 'I look around.');
	await page.getByTestId('text-window').focus();
	await page.keyboard.press('e');
	const edit = page.getByLabel('Your line, changed');
	await expect(edit).toBeFocused();
	await expect(edit).toHaveValue('I look around.');
	await page.keyboard.press('Escape');
	await expect(edit).toHaveCount(0);
	await expect(page.getByRole('dialog')).toHaveCount(0);
	// The changed line replaces it (Enter sends it).
	await quickMenu.getByRole('button', { name: 'Edit' }).click();
	await edit.fill('I open the door.');
	await edit.press('Enter');
	await settled(page, 'I open the door.', undefined);
	expect(await playerLines(page)).toEqual(['I open the door.']);

	// Reroll (R): the same line once more, the old reply replaced (by a new turn's).
	const edited = await lastExchange(page);
	await page.getByTestId('text-window').focus();
	await page.keyboard.press('r');
	await settled(page, 'I open the door.', edited?.turnId);
	expect(await playerLines(page)).toEqual(['I open the door.']);

	// Save into a named slot; the list shows the turn and the last line.
	const quick = page.getByRole('navigation', { name: 'Quick menu' });
	await quick.getByRole('button', { name: 'Save', exact: true }).click();
	const sheet = page.getByRole('dialog', { name: 'Save / Load' });
	await expect(sheet).toBeVisible();
	await sheet.getByLabel('Name').fill('Door');
	await sheet.getByRole('button', { name: 'Save here' }).click();
	await expect(sheet.getByRole('status')).toHaveText('Saved as “Door”.');
	const slot = sheet.getByTestId('save-slot').filter({ has: page.locator('strong', { hasText: /^Door$/ }) });
	await expect(slot).toContainText('Turn 1');
	// Date, turn and place are separated by a spaced dot, never run together.
	expect(await slot.locator('.meta').innerText()).not.toMatch(/\S·|·\S/);
	await expect(slot).toContainText('You said: I open the door.');
	await page.keyboard.press('Escape');

	// Q.Save, then play on, then Q.Load: a new session holding the records as quick-saved.
	await quick.getByRole('button', { name: 'Q.Save', exact: true }).click();
	await expect(quick.getByRole('status')).toHaveText('Quick-saved.');
	const original = sessionIdOf(page);
	await say(page, 'I step through.');
	expect(await playerLines(page)).toEqual(['I open the door.', 'I step through.']);
	await quick.getByRole('button', { name: 'Q.Load', exact: true }).click();
	await expect(page).not.toHaveURL(new RegExp(original), { timeout: 20_000 });
	await expect(page).toHaveTitle(/Time — Quick save/);
	expect(await playerLines(page)).toEqual(['I open the door.']);

	// The original session played on untouched; its named slot loads as another branch.
	await page.goto(`/sessions/${original}`);
	await quick.getByRole('button', { name: 'Load', exact: true }).click();
	await sheet
		.getByTestId('save-slot')
		.filter({ has: page.locator('strong', { hasText: /^Door$/ }) })
		.getByRole('button', { name: 'Load' })
		.click();
	await expect(page).toHaveTitle(/Time — Door/, { timeout: 20_000 });
	expect(await playerLines(page)).toEqual(['I open the door.']);
});

for (const language of ['en', 'ja'] as const) {
	for (const device of [
		{ name: 'desktop', width: 1366, height: 768 },
		{ name: 'phone', width: 390, height: 844 }
	]) {
		test(`screens (${language}, ${device.name}): undo / reroll / edit on the last exchange, the save / load slot list`, async ({
			page
		}) => {
			test.slow();
			await page.setViewportSize({ width: device.width, height: device.height });
			await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
			await signUp(page, uniqueName(`tt${language}`));
			if (language === 'ja') {
				await page.getByLabel('Display language').selectOption('ja');
				await page.getByRole('button', { name: 'Change', exact: true }).click();
				await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
			}
			await page.waitForLoadState('networkidle');
			await page.locator('#new-title').fill(language === 'ja' ? '霧の夜' : 'Night of fog');
			await page.locator('#new-language').selectOption(language);
			await page.locator('input[name="world"][value="sword-and-sorcery"]').check();
			await page.locator('form[action="?/create"] button[type="submit"]').click();
			const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${device.name}-${language}-${name}.png` });
			await expect(page.getByTestId('title-card')).toBeVisible();
			await page.keyboard.press('Enter');
			await readToEnd(page);
			await say(page, language === 'ja' ? '門へ向かう。#gate' : 'To the gate. #gate');
			await shot('01-last-turn-actions');
			await (await quickItem(page, language === 'ja' ? '書き直す' : 'Edit')).click();
			await expect(page.locator('#edit-line')).toBeVisible();
			await shot('02-edit');
			await page.locator('[data-testid="edit-line"] button[type="button"]').click();
			await expect(page.locator('#edit-line')).toHaveCount(0);
			const quick = page.locator('nav.quick');
			await (await quickItem(page, language === 'ja' ? 'Qセーブ' : 'Q.Save')).click();
			await expect(quick.getByRole('status')).toBeVisible();
			await (await quickItem(page, language === 'ja' ? /^セーブ$/ : /^Save$/)).click();
			const sheet = page.locator('[data-overlay="saves"]');
			await sheet.locator('#save-name').fill(language === 'ja' ? '北門にて' : 'At the gate');
			await sheet.locator('form.new button[type="submit"]').click();
			await expect(sheet.getByTestId('save-slot')).toHaveCount(2);
			// The last line reads as on the stage: the reply's last paragraph, its speaker by name, no tag markup.
			const spoken = language === 'ja' ? 'Ana：Easy, Bram. It is only a traveller.' : 'Ana: Easy, Bram. It is only a traveller.';
			await expect(sheet.getByTestId('save-slot').locator('.line')).toHaveText([spoken, spoken]);
			await page.waitForTimeout(300);
			await shot('03-save-slots');
		});
	}
}

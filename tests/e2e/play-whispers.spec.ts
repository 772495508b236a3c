/**
 * Whispers and presence (issue 25), three browsers in one session against the play server (mock LLM): the host
 * (English, desktop), Mira (Japanese, phone) and a guest (English, phone). Everyone sees who is here on the seat
 * list and Mira typing; Mira whispers a marked line with the keyboard-reachable toggle: she reads the GM's answer,
 * the others read only "Mira whispers to the GM" in their language, and neither their pages (reloaded too) nor
 * their API answers ever hold the marker. Screenshots go to test-results/whispers/ to be looked at.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { sessionIdOf, signUp, uniqueName } from './helpers';
import { input, readToEnd } from './play-helpers';

const SHOTS = 'test-results/whispers';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const MARKER = 'WHISPERMARK-e2e-7d1c';

const seats = (page: Page) => page.locator('aside.seats');

/** A signed-up player in their own browser, reading in `language`, text shown at once. */
async function player(browser: Browser, prefix: string, language: 'en' | 'ja', viewport: { width: number; height: number }) {
	const context = await browser.newContext({ viewport });
	const page = await context.newPage();
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	await signUp(page, uniqueName(prefix));
	const url = new URL(page.url());
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	return { page, close: () => context.close() };
}

/** Everything the player's API gives about the session's play, as one text. */
async function apiText(page: Page, id: string): Promise<string> {
	const paths = ['backlog', 'messages', 'members', 'state', 'journal'].map((p) => `/api/v1/sessions/${id}/${p}`);
	const texts = await Promise.all(paths.map(async (p) => (await page.request.get(p)).text()));
	return texts.join('\n');
}

test('a whisper is seen by its player only; the others see who is here and who types', async ({ browser }) => {
	test.setTimeout(240_000);
	const host = await player(browser, 'host', 'en', DESKTOP);
	const mira = await player(browser, 'mira', 'ja', PHONE);
	const guest = await player(browser, 'guest', 'en', PHONE);

	await host.page.goto('/', { waitUntil: 'networkidle' });
	await host.page.locator('#new-title').fill('Whispers at the gate');
	await host.page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await host.page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(host.page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const id = sessionIdOf(host.page);
	await readToEnd(host.page);
	const made = await host.page.request.post(`/api/v1/sessions/${id}/invitations`, { data: {} });
	expect(made.status()).toBe(201);
	const { token } = (await made.json()) as { token: string };
	for (const [who, character] of [
		[mira, 'Mira'],
		[guest, 'Tomas']
	] as const) {
		const joined = await who.page.request.post(`/api/v1/invitations/${token}/accept`, { data: { character: { name: character } } });
		expect(joined.status()).toBe(200);
		await who.page.goto(`/sessions/${id}`, { waitUntil: 'networkidle' });
		await readToEnd(who.page);
	}

	// Presence: everyone's dot is lit on everyone's seat list once their streams are open.
	for (const p of [host.page, mira.page, guest.page]) {
		await expect(seats(p).locator('li')).toHaveCount(3);
		await expect(seats(p).locator('li[data-here="true"]')).toHaveCount(3);
	}
	// Mira types: the others see it by her seat.
	await input(mira.page).fill('…');
	await expect(seats(host.page).locator('li[data-seat="2"] [data-typing]')).toHaveText('typing…');
	await expect(seats(guest.page).locator('li[data-seat="2"] [data-typing]')).toBeVisible();
	await expect(seats(mira.page).locator('[data-typing]')).toHaveCount(0);
	await host.page.screenshot({ path: `${SHOTS}/typing.en.desktop.png` });

	// The toggle is reached from the line with Tab and switched with Space.
	await input(mira.page).fill(`I hide the key in my boot. ${MARKER}`);
	await input(mira.page).focus();
	await mira.page.keyboard.press('Tab');
	const toggle = mira.page.getByRole('checkbox', { name: 'GM にささやく' });
	await expect(toggle).toBeFocused();
	await mira.page.keyboard.press('Space');
	await expect(toggle).toBeChecked();
	await mira.page.screenshot({ path: `${SHOTS}/toggle.ja.phone.png` });
	await input(mira.page).press('Enter');
	await expect(mira.page.getByTestId('text-window')).toContainText(MARKER, { timeout: 20_000 });
	// A player has no stop button (it is the owner's): the turn is over when none is left enabled.
	await expect(mira.page.locator('.vn form[action="?/cancel"] button:not([aria-disabled="true"])')).toHaveCount(0, { timeout: 20_000 });
	await readToEnd(mira.page);

	// The others read who whispered, in their language, and nothing of it.
	for (const [who, words] of [
		[host, 'Mira whispers to the GM'],
		[guest, 'Mira whispers to the GM']
	] as const) {
		await expect(who.page.getByTestId('text-window')).toContainText(words, { timeout: 20_000 });
		await expect(who.page.locator('body')).not.toContainText(MARKER);
		expect(await apiText(who.page, id)).not.toContain(MARKER);
	}
	await host.page.screenshot({ path: `${SHOTS}/whispered.en.desktop.png` });
	await guest.page.screenshot({ path: `${SHOTS}/whispered.en.phone.png` });
	await mira.page.screenshot({ path: `${SHOTS}/own-whisper.ja.phone.png` });
	await mira.page.setViewportSize(DESKTOP);
	await mira.page.screenshot({ path: `${SHOTS}/own-whisper.ja.desktop.png` });

	// A reload reads the log again (the screen opens on the last answer the reader may read; the whisper's line is in
	// the page's log): still nothing of it for the guest, all of it for Mira.
	await guest.page.reload({ waitUntil: 'networkidle' });
	const reloaded = await guest.page.content();
	expect(reloaded).toContain('Mira whispers to the GM');
	expect(reloaded).not.toContain(MARKER);
	await mira.page.reload({ waitUntil: 'networkidle' });
	expect(await mira.page.content()).toContain(MARKER);

	await host.close();
	await mira.close();
	await guest.close();
});

/**
 * Playing together (issue 25), three browsers in one session against the play server (mock LLM): the host
 * (English, desktop) invites from the settings; a player joins from the link in Japanese on a phone with a
 * character of her own, another in English on a phone in one click; everyone sees the seats; in round order a line out of
 * turn is refused in the reader's language, a round of lines goes in order, tagged with each character; a player
 * removed while the GM is still writing loses the live stream and the session. Screenshots go to
 * test-results/together/ to be looked at.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { sessionIdOf, signUp, uniqueName } from './helpers';
import { input, openSettings, readToEnd, say } from './play-helpers';

const SHOTS = 'test-results/together';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const seats = (page: Page) => page.locator('aside.seats');

/** A signed-up player in their own browser, reading in `language`, text shown at once. */
async function player(browser: Browser, prefix: string, language: 'en' | 'ja', viewport: { width: number; height: number }) {
	// Signed up in English (the helper reads English headings), then reading in `language` by the nav's cookie.
	const context = await browser.newContext({ viewport });
	const page = await context.newPage();
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
	const name = uniqueName(prefix);
	await signUp(page, name);
	const url = new URL(page.url());
	await context.addCookies([{ name: 'kantera_lang', value: language, domain: url.hostname, path: '/' }]);
	return { page, name, close: () => context.close() };
}

test('three players share a session: invitation, seats, a round of turns, a player removed mid-stream', async ({ browser }) => {
	test.setTimeout(240_000);
	const title = 'Three at the gate';
	const host = await player(browser, 'host', 'en', DESKTOP);
	const mira = await player(browser, 'mira', 'ja', PHONE);
	const guest = await player(browser, 'guest', 'en', PHONE);

	// The host starts a game and makes an invitation link in the settings.
	await host.page.goto('/', { waitUntil: 'networkidle' });
	await host.page.locator('#new-title').fill(title);
	await host.page.locator('input[name="world"][value="sword-and-sorcery"]').check();
	await host.page.locator('form[action="?/create"] button[type="submit"]').click();
	await expect(host.page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const id = sessionIdOf(host.page);
	await readToEnd(host.page);
	let settings = await openSettings(host.page, 'Settings');
	await settings.getByRole('button', { name: 'Make an invitation link' }).click();
	const link = await settings.getByRole('textbox', { name: 'Make an invitation link' }).inputValue();
	expect(link).toMatch(/\/invite\/ki_[A-Za-z0-9_-]{43}$/);
	await host.page.screenshot({ path: `${SHOTS}/host-invite.en.desktop.png` });
	await host.page.keyboard.press('Escape');

	// Mira joins in Japanese on a phone, with a character of her own.
	await mira.page.goto(link, { waitUntil: 'networkidle' });
	await expect(mira.page.getByRole('heading', { name: 'セッションに参加' })).toBeVisible();
	await mira.page.getByLabel('キャラクターの名前').fill('Mira');
	await mira.page.getByLabel('見た目（任意）').fill('a grey cloak');
	await mira.page.screenshot({ path: `${SHOTS}/invite.ja.phone.png`, fullPage: true });
	await mira.page.getByRole('button', { name: '席につく' }).click();
	await expect(mira.page).toHaveURL(new RegExp(`/sessions/${id}$`));
	await readToEnd(mira.page);

	// The guest joins in one click, as a character named after the account.
	await guest.page.goto(link, { waitUntil: 'networkidle' });
	await guest.page.getByRole('button', { name: 'Take my seat' }).click();
	await expect(guest.page).toHaveURL(new RegExp(`/sessions/${id}$`));
	await readToEnd(guest.page);

	// Everyone sees the three seats (the host's list reads again on the table's event).
	for (const p of [host.page, mira.page, guest.page]) {
		await expect(seats(p).locator('li')).toHaveCount(3);
		await expect(seats(p)).toContainText('Mira');
		await expect(seats(p)).toContainText(guest.name);
	}
	await mira.page.screenshot({ path: `${SHOTS}/seats.ja.phone.png` });
	await guest.page.screenshot({ path: `${SHOTS}/seats.en.phone.png` });
	await mira.page.setViewportSize(DESKTOP);
	await mira.page.screenshot({ path: `${SHOTS}/seats.ja.desktop.png` });
	await mira.page.setViewportSize(PHONE);

	// Round order: only the seat whose turn it is may send; the others are told in their language.
	settings = await openSettings(host.page, 'Settings');
	await settings.getByLabel('Turn order').selectOption('round');
	await expect(settings.getByLabel('Turn order')).toHaveValue('round');
	await host.page.keyboard.press('Escape');
	await expect(seats(host.page).getByRole('status')).toHaveText('Your turn');
	await expect(seats(mira.page).getByRole('status')).toHaveText(/の番$/);

	await input(mira.page).fill('私が先に行く。');
	await input(mira.page).press('Enter');
	await expect(mira.page.locator('#turn-input-error')).toContainText('まだあなたの番ではありません');
	await mira.page.screenshot({ path: `${SHOTS}/not-your-turn.ja.phone.png` });
	await input(mira.page).fill('');

	await say(host.page, 'I knock on the gate.', 'I knock on the gate.');
	await expect(seats(mira.page).getByRole('status')).toHaveText('あなたの番');
	await say(mira.page, 'I follow with a lantern.', 'Mira: I follow with a lantern.');
	await expect(seats(guest.page).getByRole('status')).toHaveText('Your turn');
	await host.page.screenshot({ path: `${SHOTS}/round.en.desktop.png` });

	// The guest's line streams slowly; the host removes Mira meanwhile: her live stream ends and the session is gone for her.
	await input(guest.page).fill('I wait in the fog. #drawn');
	await input(guest.page).press('Enter');
	// The turn runs (the stop button is the host's alone).
	await expect(host.page.locator('.vn form[action="?/cancel"] button')).not.toHaveAttribute('aria-disabled', 'true');
	await expect(guest.page.locator('.vn form[action="?/cancel"]')).toHaveCount(0);
	settings = await openSettings(host.page, 'Settings');
	await settings.getByRole('button', { name: 'Remove Mira' }).click();
	await expect(settings.locator('li[data-seat]')).toHaveCount(2);
	await expect(mira.page.getByText('ライブ更新が止まりました。ページを再読み込みしてください。')).toBeVisible({ timeout: 20_000 });
	await mira.page.screenshot({ path: `${SHOTS}/removed.ja.phone.png` });
	const gone = await mira.page.request.get(`/api/v1/sessions/${id}/members`);
	expect(gone.status()).toBe(404);
	await host.page.keyboard.press('Escape');
	await expect(seats(guest.page).locator('li')).toHaveCount(2);

	await host.close();
	await mira.close();
	await guest.close();
});

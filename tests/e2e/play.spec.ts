/**
 * The play screen against the built app and the scripted mock LLM (scenario `adv-play`, see
 * tests/mock-llm/adv-play.ts): a world is picked, turns are played, the stage follows the GM's cues,
 * a reload mid-stream continues the text once, an upstream failure offers a retry and records
 * nothing, a provider error quoting the GM-only prompt back shows only a fixed reason and an error id, a turn can be stopped, and the UI renders in Japanese and English.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';
import { GATE_REPLY, HARBOUR_REPLY, LEAK_MARKER, RETRY_REPLY, SLOW_PARAGRAPHS, SLOW_REPLY } from '../mock-llm/adv-play';

const SHOTS = 'test-results/play';

/** Creates a session in a world from the home page and opens its play screen; returns its id. */
async function startGame(page: Page, title: string, world: RegExp): Promise<string> {
	await page.goto('/');
	await page.getByLabel('Title').fill(title);
	await page.getByRole('radio', { name: world }).check();
	await page.getByRole('button', { name: 'Create' }).click();
	const link = page.getByRole('link', { name: title, exact: true });
	await link.click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const id = /\/sessions\/([a-z2-7]{20})$/.exec(page.url())?.[1];
	if (!id) throw new Error(`unexpected play URL ${page.url()}`);
	// Tests read whole paragraphs: no typewriter effect.
	await page.getByLabel('Text speed').selectOption('instant');
	return id;
}

async function say(page: Page, text: string): Promise<void> {
	await page.getByLabel('What do you do?').fill(text);
	await page.getByRole('button', { name: 'Send' }).click();
}

const textWindow = (page: Page) => page.getByTestId('text-window');
const lineText = (page: Page) => page.getByTestId('line-text');
const slot = (page: Page, name: 'left' | 'center' | 'right') => page.locator(`[data-slot="${name}"]`);
const background = (page: Page) => page.locator('[data-scene]');
const turnIdle = (page: Page) => expect(page.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });

/** The paragraph index on screen (from the line key `${turn}:${index}`). */
async function paragraphIndex(page: Page): Promise<number> {
	const key = (await textWindow(page).getAttribute('data-key')) ?? '';
	return Number(key.slice(key.lastIndexOf(':') + 1));
}

async function messages(page: Page, id: string): Promise<{ role: string; body: string }[]> {
	const response = await page.request.get(`/api/v1/sessions/${id}/messages?limit=200`);
	expect(response.ok()).toBe(true);
	const body: { messages: { role: string; body: string }[] } = await response.json();
	return body.messages;
}

test('a world is picked, turns play on the stage: characters enter at their slots, the speaker is lit, the background changes', async ({ page }) => {
	await signUp(page, uniqueName('adv'));
	await startGame(page, 'North gate', /Vesca|sword/i);
	// Before the first turn: the world's opening place, nobody on stage.
	await expect(background(page)).not.toHaveAttribute('data-scene', '');
	await expect(textWindow(page)).toContainText('The story has not begun');
	await page.screenshot({ path: `${SHOTS}/01-opening.png` });

	await say(page, 'I walk up to the north gate. #gate');
	// The reply's first paragraph; once committed, its background cue has played.
	await expect(lineText(page)).toHaveText('Fog hangs over the north gate.');
	await expect(background(page)).toHaveAttribute('data-scene', 'North Gate', { timeout: 15_000 });
	await turnIdle(page);
	await expect(slot(page, 'left')).toHaveAttribute('data-character', '');

	// Bram enters left before his line and is lit while he speaks.
	await textWindow(page).click();
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(lineText(page)).toHaveText('Halt! Who goes there?');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'lit');
	await expect(page.getByTestId('announcement')).toHaveText('Bram: Halt! Who goes there?');

	// Keyboard: Enter on the focused window goes on. Ana enters right; she is lit, Bram greyed.
	await textWindow(page).focus();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('speaker')).toHaveText('Ana');
	await expect(slot(page, 'right')).toHaveAttribute('data-character', 'Ana');
	await expect(slot(page, 'right')).toHaveAttribute('data-light', 'lit');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'dim');
	await expect(textWindow(page)).toBeFocused();
	// The placeholders (silhouettes) are swapped for the generated images without a reload.
	await expect(slot(page, 'left')).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
	await expect(slot(page, 'left').locator('img')).toHaveAttribute('src', /\/api\/v1\/sessions\/[a-z2-7]{20}\/images\//);
	await expect(background(page)).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
	await page.screenshot({ path: `${SHOTS}/02-gate-ana-speaks.png` });

	await say(page, 'Let us go down to the harbour. #harbour');
	await expect(lineText(page)).toHaveText('The three of you walk down to the harbour.');
	await turnIdle(page);
	await expect(background(page)).toHaveAttribute('data-scene', 'Harbour');
	await expect(slot(page, 'right')).toHaveAttribute('data-character', '');
	await textWindow(page).focus();
	await page.keyboard.press('Space');
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(slot(page, 'center')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'center')).toHaveAttribute('data-light', 'lit');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', '');
	await page.screenshot({ path: `${SHOTS}/03-harbour.png` });

	// Never a raw speaker tag on screen.
	await expect(page.getByText('@Bram')).toHaveCount(0);

	// The backlog puts a past line on the stage with the background and characters it had then.
	await page.getByRole('listbox').getByRole('option', { name: /Halt! Who goes there\?/ }).click();
	await expect(background(page)).toHaveAttribute('data-scene', 'North Gate');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'lit');
	await expect(slot(page, 'center')).toHaveAttribute('data-character', '');
	await expect(lineText(page)).toHaveText('Halt! Who goes there?');
	await page.screenshot({ path: `${SHOTS}/03b-backlog-past-line.png` });
	await page.getByRole('button', { name: 'Back to the story' }).click();
	await expect(background(page)).toHaveAttribute('data-scene', 'Harbour');
	await expect(textWindow(page)).toBeFocused();

	// A reload shows the last reply where it was read, with the stage it had.
	await page.reload();
	await expect(background(page)).toHaveAttribute('data-scene', 'Harbour');
	await expect(slot(page, 'center')).toHaveAttribute('data-character', 'Bram');
	expect(GATE_REPLY).toContain('@Bram(stern)');
	expect(HARBOUR_REPLY).toContain('@Bram:');
});

test('a reload during a streaming turn continues the text once', async ({ page }) => {
	await signUp(page, uniqueName('reload'));
	const id = await startGame(page, 'Reload mid-turn', /Iron Walkers|Walkers/i);
	await say(page, 'I keep watch on the road. #slow');
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await expect(lineText(page)).toHaveText(/\S/);
	// Forget what was read, so after the reload every paragraph is shown again from the first.
	await page.evaluate((sessionId) => localStorage.removeItem(`kantera.read.${sessionId}`), id);
	await page.reload();
	// The page came back mid-turn (not after it).
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await page.screenshot({ path: `${SHOTS}/04-reloaded-mid-stream.png` });
	await turnIdle(page);

	// Walk the reply: every paragraph exactly as the GM wrote it, nothing repeated.
	if ((await textWindow(page).getAttribute('data-kind')) === 'player') await textWindow(page).click();
	const seen: number[] = [];
	for (let step = 0; step < SLOW_PARAGRAPHS.length; step++) {
		const index = await paragraphIndex(page);
		await expect(lineText(page)).toHaveText(SLOW_PARAGRAPHS[index]?.replace(/^@Bram: /, '') ?? '<missing>');
		seen.push(index);
		if (index === SLOW_PARAGRAPHS.length - 1) break;
		await textWindow(page).click();
		await expect.poll(() => paragraphIndex(page)).toBe(index + 1);
	}
	expect(seen).toEqual([0, 1, 2]);
	await page.screenshot({ path: `${SHOTS}/05-reloaded-complete.png` });
	// And the record holds the reply once.
	const log = await messages(page, id);
	expect(log.filter((m) => m.role === 'gm').map((m) => m.body)).toEqual([SLOW_REPLY]);
});

test('a scripted upstream failure offers a retry and leaves the records unchanged', async ({ page }) => {
	await signUp(page, uniqueName('fail'));
	const id = await startGame(page, 'Upstream failure', /Vesca|sword/i);
	const before = { log: await messages(page, id), state: await (await page.request.get(`/api/v1/sessions/${id}/state`)).json(), journal: await (await page.request.get(`/api/v1/sessions/${id}/journal`)).json() };

	const line = 'I step into the fog. #fail';
	await say(page, line);
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	await expect(outcome).toContainText('Nothing of it was recorded');
	// The failed turn plays nothing: only the player's line is in the window.
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'player');
	await expect(page.getByText('The fog thickens')).toHaveCount(0);
	await page.screenshot({ path: `${SHOTS}/06-failed-with-retry.png` });

	const after = { log: await messages(page, id), state: await (await page.request.get(`/api/v1/sessions/${id}/state`)).json(), journal: await (await page.request.get(`/api/v1/sessions/${id}/journal`)).json() };
	expect(after).toEqual(before);

	// Retry resends the same line under a new key; this time the GM answers.
	await outcome.getByRole('button', { name: 'Retry' }).click();
	await expect(lineText(page)).toHaveText(RETRY_REPLY, { timeout: 20_000 });
	await turnIdle(page);
	await expect(outcome).toHaveCount(0);
	await expect(page.getByLabel('What do you do?')).toBeFocused();
	const log = await messages(page, id);
	expect(log.map((m) => [m.role, m.body])).toEqual([...before.log.map((m) => [m.role, m.body]), ['player', line], ['gm', RETRY_REPLY]]);
});

test('a provider error that quotes the prompt back shows a fixed reason and an error id, and none of its words anywhere', async ({ page }) => {
	await signUp(page, uniqueName('leak'));
	const id = await startGame(page, 'Provider echo', /Vesca|sword/i);
	await say(page, 'I break the seal of the letter. #leak');
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	await expect(outcome).toContainText('The LLM provider refused the request. Try wording your line differently. Nothing of it was recorded.');
	const errorId = /Error id: ([a-z2-7]{10})/.exec(await page.getByTestId('turn-error-id').innerText())?.[1] ?? '';
	expect(errorId).toMatch(/^[a-z2-7]{10}$/);
	await page.screenshot({ path: `${SHOTS}/06b-failed-refused.png` });

	// The event log from the start, the turn through the API, the page after a reload and its data.
	const events = await page.evaluate(async (sessionId) => {
		const res = await fetch(`/api/v1/sessions/${sessionId}/events?lastEventId=0`);
		const reader = res.body?.getReader();
		let text = '';
		while (reader && !text.includes('turn.failed')) {
			const { value, done } = await reader.read();
			if (done) break;
			text += new TextDecoder().decode(value);
		}
		await reader?.cancel();
		return text;
	}, id);
	const failed = /event: turn\.failed\ndata: (.*)\n/.exec(events)?.[1] ?? '{}';
	const event: unknown = JSON.parse(failed);
	expect(event).toMatchObject({ type: 'turn.failed', reason: 'refused', errorId, retryable: false });
	const turnId = typeof event === 'object' && event !== null && 'turnId' in event ? String(event.turnId) : '';
	const turn = await (await page.request.get(`/api/v1/sessions/${id}/turns/${turnId}`)).text();
	expect(JSON.parse(turn)).toMatchObject({ status: 'failed', failure: { reason: 'refused', errorId } });
	await page.reload();
	await expect(page.getByTestId('turn-error-id')).toContainText(errorId);
	const html = await page.content();
	const data = await (await page.request.get(`/sessions/${id}/__data.json`)).text();
	for (const seen of [events, turn, html, data]) {
		expect(seen).not.toContain(LEAK_MARKER);
		// The mission (GM rules and the world's GM-only behaviour) the provider quoted back.
		expect(seen).not.toContain('You are the game master');
	}

	// In Japanese, the same failure in Japanese words.
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(outcome).toContainText('LLM プロバイダーがリクエストを拒否しました。');
	await expect(page.getByTestId('turn-error-id')).toContainText(`エラー ID：${errorId}`);
	await outcome.scrollIntoViewIfNeeded();
	await page.screenshot({ path: `${SHOTS}/06c-failed-refused-ja.png` });
});

test('the stop button cancels a running turn, which then shows nothing', async ({ page }) => {
	await signUp(page, uniqueName('stop'));
	const id = await startGame(page, 'Stopped turn', /Vesca|sword/i);
	await say(page, 'Wait and listen. #slow');
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await page.getByRole('button', { name: 'Stop' }).click();
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'cancelled', { timeout: 20_000 });
	await expect(outcome.getByRole('button', { name: 'Retry' })).toBeVisible();
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'player');
	expect((await messages(page, id)).filter((m) => m.role === 'gm')).toEqual([]);
});

test('both languages render, and the phone-sized screen has no sideways scroll', async ({ page }) => {
	await signUp(page, uniqueName('lang'));
	await startGame(page, 'Languages', /Iron Walkers|Walkers/i);
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	await expect(page.getByLabel('あなたの行動')).toBeVisible();
	await expect(page.getByRole('button', { name: '送信' })).toBeVisible();
	await expect(page.getByRole('link', { name: '← セッション一覧' })).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/07-japanese.png` });
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'あなたのプレイセッション' })).toBeVisible();
	await expect(page.getByRole('group', { name: '世界観' })).toBeVisible();
	await page.getByLabel('表示言語').selectOption('en');
	await page.getByRole('button', { name: '変更', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'en');
	await expect(page.getByRole('heading', { name: 'Your play sessions' })).toBeVisible();

	await page.setViewportSize({ width: 375, height: 740 });
	await page.getByRole('link', { name: 'Languages', exact: true }).click();
	await say(page, 'Hello there.');
	await expect(lineText(page)).toHaveText('You said: Hello there.', { timeout: 20_000 });
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	await page.screenshot({ path: `${SHOTS}/08-phone.png`, fullPage: true });
});

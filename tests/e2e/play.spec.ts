/**
 * The play screen against the built app and the scripted mock LLM (scenario `adv-play`, see
 * tests/mock-llm/adv-play.ts), played by keyboard as far as a reader would: a world is picked, its
 * title card and prologue play, turns stream onto the stage (stage directions live, provisional until
 * the commit), the backlog shows a past line as it was, a reload mid-stream continues once, an
 * upstream failure offers a retry and records nothing, a turn can be stopped, the GM's choices are
 * sent once, expressions without a sprite of their own are marked, and a provider error quoting the
 * GM-only prompt back shows only a fixed reason and an error id.
 */
import { test, expect, type Page } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, createSession } from './helpers';
import {
	CHOICES,
	CHOICES_REPLY,
	GATE_REPLY,
	HARBOUR_REPLY,
	LEAK_MARKER,
	LIVE_PARAGRAPHS,
	RETRY_REPLY,
	SLOW_PARAGRAPHS,
	SLOW_REPLY
} from '../mock-llm/adv-play';

const SHOTS = 'test-results/play';

/** Most tests read whole paragraphs: the reader's speed is set to instant in this browser. */
async function instantText(page: Page): Promise<void> {
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
}

const textWindow = (page: Page) => page.getByTestId('text-window');
const lineText = (page: Page) => page.getByTestId('line-text');
const input = (page: Page) => page.getByLabel('What do you do?');
const slot = (page: Page, name: 'left' | 'center' | 'right') => page.locator(`[data-slot="${name}"]`);
const background = (page: Page) => page.locator('.stage [data-scene]');
const stop = (page: Page) => page.getByRole('button', { name: 'Stop' });
const turnIdle = (page: Page) => expect(stop(page)).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
const turnRunning = (page: Page) => expect(stop(page)).not.toHaveAttribute('aria-disabled', 'true');

/** Lets the mock LLM (its own process, see playwright.config.ts) go on to a fault it holds for `key`. */
async function releaseMockFault(page: Page, key: string): Promise<void> {
	const res = await page.request.post(`http://127.0.0.1:${process.env.KANTERA_E2E_MOCK_PORT}/mock/release/${encodeURIComponent(key)}`);
	expect(res.status()).toBe(200);
}

/** Creates a session in a world, starts it from its title card and reads the prologue to its end (keyboard only). */
async function startGame(page: Page, title: string, world: RegExp): Promise<string> {
	const id = await createSession(page, title, world);
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.keyboard.press('Enter');
	await readToEnd(page);
	return id;
}

/** Enter until the reply has been read and the window asks for the player's line. */
async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

async function say(page: Page, text: string): Promise<void> {
	await input(page).fill(text);
	await input(page).press('Enter');
}

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

test('turns play on the stage: characters enter at their slots, the speaker is lit, the background changes, the backlog shows a past line as it was', async ({
	page
}) => {
	await instantText(page);
	await signUp(page, uniqueName('adv'));
	await startGame(page, 'North gate', /Vesca/);
	// The prologue left Mirela and Sefa in the tavern.
	await expect(background(page)).toHaveAttribute('data-scene', 'The Crooked Lantern');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Mirela');
	await page.screenshot({ path: `${SHOTS}/01-opening.png` });

	await say(page, 'I walk up to the north gate. #gate');
	// The reply's first paragraph; the GM cleared the stage and changed the place before it.
	await expect(lineText(page)).toHaveText('Fog hangs over the north gate.');
	await expect(background(page)).toHaveAttribute('data-scene', 'North Gate', { timeout: 15_000 });
	await expect(background(page)).toHaveAttribute('data-kind', 'night');
	await turnIdle(page);
	await expect(slot(page, 'left')).toHaveAttribute('data-character', '');

	// Bram enters left before his line and is lit while he speaks.
	await textWindow(page).click();
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(lineText(page)).toHaveText('Halt! Who goes there?');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'lit');
	await expect(page.getByTestId('announcement')).toHaveText('Bram: Halt! Who goes there?');

	// Keyboard: Enter goes on. Ana enters right; she is lit, Bram greyed.
	await textWindow(page).focus();
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('speaker')).toHaveText('Ana');
	await expect(slot(page, 'right')).toHaveAttribute('data-character', 'Ana');
	await expect(slot(page, 'right')).toHaveAttribute('data-light', 'lit');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'dim');
	await expect(textWindow(page)).toBeFocused();
	// The placeholders are swapped for the generated images without a reload.
	await expect(slot(page, 'left')).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
	await expect(slot(page, 'left').locator('img')).toHaveAttribute('src', /\/api\/v1\/sessions\/[a-z2-7]{20}\/images\//);
	await expect(background(page)).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
	await page.screenshot({ path: `${SHOTS}/02-gate-ana-speaks.png` });

	await say(page, 'Let us go down to the harbour. #harbour');
	await expect(lineText(page)).toHaveText('The three of you walk down to the harbour.');
	await turnIdle(page);
	await expect(background(page)).toHaveAttribute('data-scene', 'Harbour');
	await expect(background(page)).toHaveAttribute('data-kind', 'street');
	await expect(slot(page, 'right')).toHaveAttribute('data-character', '');
	await page.keyboard.press('Space');
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(slot(page, 'center')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'center')).toHaveAttribute('data-light', 'lit');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', '');
	await page.screenshot({ path: `${SHOTS}/03-harbour.png` });

	// Never a raw speaker tag on screen.
	await expect(page.getByText('@Bram')).toHaveCount(0);

	// The log (L) puts a past line on the stage with the background and characters it had then.
	await page.keyboard.press('l');
	const log = page.getByRole('dialog', { name: 'Backlog' });
	await expect(log).toBeVisible();
	await log
		.getByRole('listbox')
		.getByRole('option', { name: /Halt! Who goes there\?/ })
		.click();
	await expect(log).toBeHidden();
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

test("the player's long line is shown whole at once, and the reply starts painting while it streams, with no click", async ({ page }) => {
	await signUp(page, uniqueName('longline'));
	// At the normal reading speed: the player's own line is never typed out again.
	const id = await createSession(page, 'Long line', /Empty world/);
	const threat = 'I draw my sabre, step between Sefa and the door, and tell the man in grey that he can leave now or be carried out, ';
	const line = `${threat.repeat(2)}and I mean it. #slow`;
	expect(line.length).toBeGreaterThan(240);
	// Every state of the window, as painted: what kind of line, its text, and whether the turn still ran.
	await page.evaluate(() => {
		const frames: { kind: string; text: string; running: boolean }[] = [];
		Reflect.set(window, '__frames', frames);
		const note = () => {
			const w = document.querySelector('[data-testid="text-window"]');
			const stop = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Stop');
			frames.push({
				kind: w?.getAttribute('data-kind') ?? '',
				text: w?.querySelector('[data-testid="line-text"]')?.textContent ?? '',
				running: stop?.getAttribute('aria-disabled') !== 'true'
			});
		};
		new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
	});
	await say(page, line);
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'narration', { timeout: 15_000 });
	await turnIdle(page);
	const frames = v.parse(
		v.array(v.object({ kind: v.string(), text: v.string(), running: v.boolean() })),
		await page.evaluate((): unknown => Reflect.get(window, '__frames'))
	);
	const players = frames.filter((f) => f.kind === 'player');
	// The player's line was on screen, and only ever whole: never typed out.
	expect(players.length).toBeGreaterThan(0);
	expect(new Set(players.map((f) => f.text))).toEqual(new Set([line]));
	// The reply painted while the turn still streamed, without a click in between.
	expect(frames.some((f) => f.kind === 'narration' && f.running && f.text.length > 0)).toBe(true);
	await page.screenshot({ path: `${SHOTS}/04-reply-after-long-line.png` });
	expect((await messages(page, id)).map((m) => m.role)).toEqual(['player', 'gm']);
});

test('a streamed entrance lights the speaker before the commit', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('live'));
	await startGame(page, 'Live entrance', /Vesca/);
	await say(page, 'I hide behind the barrels. #live');
	await expect(lineText(page)).toHaveText(LIVE_PARAGRAPHS[0] ?? '<missing>', { timeout: 15_000 });
	// The place the GM set before writing is drawn at once, as a room.
	await expect(background(page)).toHaveAttribute('data-scene', 'Cellar');
	await expect(background(page)).toHaveAttribute('data-kind', 'interior');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', '');
	await expect(textWindow(page)).toHaveAttribute('data-complete', 'true');
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	// Still streaming, not committed: Bram already stands at his slot, lit.
	await turnRunning(page);
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
	await expect(slot(page, 'left')).toHaveAttribute('data-light', 'lit');
	await page.screenshot({ path: `${SHOTS}/05-live-entrance.png` });
	await turnIdle(page);
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
});

test('a failed turn reverts a provisional entrance, records nothing, and offers a retry', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('livefail'));
	const id = await startGame(page, 'Live failure', /Vesca/);
	const before = await messages(page, id);
	const line = 'I wait in the dark. #livefail';
	await say(page, line);
	await expect(lineText(page)).toHaveText(LIVE_PARAGRAPHS[0] ?? '<missing>', { timeout: 15_000 });
	// Complete once Bram's line has begun: then the reader goes on to it.
	await expect(textWindow(page)).toHaveAttribute('data-complete', 'true');
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Bram');
	// Only now does the mock break the stream (it holds the break until this line is released).
	await releaseMockFault(page, line);
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	// Nothing of the failed turn stays: the stage is back as the prologue left it.
	await expect(slot(page, 'left')).toHaveAttribute('data-character', 'Mirela');
	await expect(background(page)).toHaveAttribute('data-scene', 'The Crooked Lantern');
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'player');
	await page.screenshot({ path: `${SHOTS}/06-failed-reverted.png` });
	expect(await messages(page, id)).toEqual(before);
	// Retry resends the same line under a new key; this time the GM answers.
	await outcome.getByRole('button', { name: 'Retry' }).click();
	await expect(lineText(page)).toHaveText(LIVE_PARAGRAPHS[0] ?? '<missing>', { timeout: 20_000 });
	await turnIdle(page);
	await expect(outcome).toHaveCount(0);
	expect((await messages(page, id)).slice(before.length).map((m) => m.role)).toEqual(['player', 'gm']);
});

test('a scripted upstream failure offers a retry and leaves the records unchanged', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('fail'));
	const id = await startGame(page, 'Upstream failure', /Vesca/);
	const records = async () => ({
		log: await messages(page, id),
		state: await (await page.request.get(`/api/v1/sessions/${id}/state`)).json(),
		journal: await (await page.request.get(`/api/v1/sessions/${id}/journal`)).json()
	});
	const before = await records();

	const line = 'I step into the fog. #fail';
	await say(page, line);
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	await expect(outcome).toContainText('Nothing of it was recorded');
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'player');
	await expect(page.getByText('The fog thickens')).toHaveCount(0);
	expect(await records()).toEqual(before);

	await outcome.getByRole('button', { name: 'Retry' }).click();
	await expect(lineText(page)).toHaveText(RETRY_REPLY, { timeout: 20_000 });
	await turnIdle(page);
	await expect(outcome).toHaveCount(0);
	await expect(input(page)).toBeVisible();
	const log = await messages(page, id);
	expect(log.map((m) => [m.role, m.body])).toEqual([...before.log.map((m) => [m.role, m.body]), ['player', line], ['gm', RETRY_REPLY]]);
});

test('a provider error that quotes the prompt back shows a fixed reason and an error id, and none of its words anywhere', async ({
	page
}) => {
	await signUp(page, uniqueName('leak'));
	const id = await startGame(page, 'Provider echo', /Vesca|sword/i);
	await say(page, 'I break the seal of the letter. #leak');
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	await expect(outcome).toContainText(
		'The LLM provider refused the request. Try wording your line differently. Nothing of it was recorded.'
	);
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

	// In Japanese (the screen language, from the play screen's settings), the same failure in Japanese words.
	await page.getByRole('navigation', { name: 'Quick menu' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: '日本語' }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	await expect(outcome).toContainText('LLM プロバイダーがリクエストを拒否しました。');
	await expect(page.getByTestId('turn-error-id')).toContainText(`エラー ID：${errorId}`);
	const htmlJa = await page.content();
	expect(htmlJa).not.toContain(LEAK_MARKER);
	expect(htmlJa).not.toContain('You are the game master');
	await outcome.scrollIntoViewIfNeeded();
	await page.screenshot({ path: `${SHOTS}/06c-failed-refused-ja.png` });
});

test('a reload during a streaming turn continues the text once', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('reload'));
	const id = await startGame(page, 'Reload mid-turn', /Iron Walkers/);
	await say(page, 'I keep watch on the road. #slow');
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await expect(lineText(page)).toHaveText(/\S/);
	// Forget what was read, so after the reload every paragraph is shown again from the first.
	await page.evaluate((sessionId) => localStorage.removeItem(`kantera.read.${sessionId}`), id);
	await page.reload();
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await page.screenshot({ path: `${SHOTS}/07-reloaded-mid-stream.png` });
	await turnIdle(page);

	if ((await textWindow(page).getAttribute('data-kind')) === 'player') await page.keyboard.press('Enter');
	const seen: number[] = [];
	for (let step = 0; step < SLOW_PARAGRAPHS.length; step++) {
		const index = await paragraphIndex(page);
		await expect(lineText(page)).toHaveText(SLOW_PARAGRAPHS[index]?.replace(/^@Bram: /, '') ?? '<missing>');
		seen.push(index);
		if (index === SLOW_PARAGRAPHS.length - 1) break;
		await page.keyboard.press('Enter');
		await expect.poll(() => paragraphIndex(page)).toBe(index + 1);
	}
	expect(seen).toEqual([0, 1, 2]);
	const log = await messages(page, id);
	expect(
		log
			.filter((m) => m.role === 'gm')
			.map((m) => m.body)
			.slice(1)
	).toEqual([SLOW_REPLY]);
});

test('the stop button cancels a running turn, which then shows nothing', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('stop'));
	const id = await startGame(page, 'Stopped turn', /Vesca/);
	await say(page, 'Wait and listen. #slow');
	await expect(page.getByTestId('turn-status')).toHaveText('The game master is writing…');
	await stop(page).click();
	const outcome = page.getByTestId('turn-outcome');
	await expect(outcome).toHaveAttribute('data-status', 'cancelled', { timeout: 20_000 });
	await expect(outcome.getByRole('button', { name: 'Retry' })).toBeVisible();
	await expect(textWindow(page)).toHaveAttribute('data-kind', 'player');
	expect((await messages(page, id)).filter((m) => m.role === 'gm')).toHaveLength(1);
});

test('a choice menu over the stage sends the picked line once; writing something else stays possible', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('choice'));
	const id = await startGame(page, 'Choices', /Vesca/);
	await say(page, 'I look at Bram. #choices');
	await expect(lineText(page)).toHaveText(CHOICES_REPLY, { timeout: 15_000 });
	await turnIdle(page);
	const menu = page.getByRole('group', { name: 'Choices' });
	// The last entry is "Write your own…" (issue 24), which takes the keyboard to the window's line.
	await expect(menu.getByRole('button')).toHaveText([...CHOICES, 'Write your own…']);
	// The menu takes the keyboard; the input stays there for a line of one's own.
	await expect(menu.getByRole('button', { name: CHOICES[0] })).toBeFocused();
	await expect(input(page)).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/08-choices.png` });
	// Enter picks; a second Enter and a click on the menu send nothing more.
	await page.keyboard.press('Enter');
	await menu
		.getByRole('button', { name: CHOICES[0] })
		.click({ timeout: 2_000 })
		.catch(() => undefined);
	await page.keyboard.press('Enter');
	await expect(menu).toHaveCount(0, { timeout: 10_000 });
	await turnIdle(page);
	const players = (await messages(page, id)).filter((m) => m.role === 'player').map((m) => m.body);
	expect(players).toEqual(['I look at Bram. #choices', CHOICES[0]]);
});

test('an expression without a sprite of its own is marked on the figure', async ({ page }) => {
	await instantText(page);
	await signUp(page, uniqueName('face'));
	await startGame(page, 'Faces', /Vesca/);
	await say(page, 'Bram, again. #face');
	await expect(page.getByTestId('speaker')).toHaveText('Bram', { timeout: 15_000 });
	await turnIdle(page);
	const center = slot(page, 'center');
	await expect(center).toHaveAttribute('data-character', 'Bram');
	await expect(center).toHaveAttribute('data-expression', 'stern');
	// "stern" was ordered with him: its own sprite (the offline one wears the word), no mark.
	await expect(center.getByTestId('expression-mark')).toHaveCount(0, { timeout: 20_000 });
	await page.keyboard.press('Enter');
	await expect(center).toHaveAttribute('data-expression', 'angry');
	await expect(center).toHaveAttribute('data-mood', 'angry');
	const mark = center.getByTestId('expression-mark');
	await expect(mark).toHaveText('angry');
	await page.screenshot({ path: `${SHOTS}/09-expression-mark.png` });
	// The mark sits on the head (the picture's top edge), on a desktop and on a phone, where the figure is a bust-up.
	const picture = center.locator('img');
	const onHead = async () => {
		const [m, p] = await Promise.all([mark.boundingBox(), picture.boundingBox()]);
		if (!m || !p) throw new Error('mark or picture not drawn');
		expect(m.y + m.height).toBeGreaterThan(p.y);
		expect(m.y).toBeLessThan(p.y + p.height * 0.1);
		return p;
	};
	const desktop = await onHead();
	const desktopHeight = page.viewportSize()?.height ?? 0;
	await page.setViewportSize({ width: 390, height: 844 });
	const phone = await onHead();
	await page.screenshot({ path: `${SHOTS}/09-expression-mark-phone.png` });
	const window = await page.getByTestId('text-window').boundingBox();
	// Bust-up: the head is well above the window and the picture runs on under it (cut at the waist).
	expect(window && phone.y + phone.height > window.y + window.height).toBe(true);
	expect(phone.height / 844).toBeGreaterThan(desktop.height / desktopHeight);
});

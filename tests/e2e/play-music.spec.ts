/**
 * A preset's own sound on the stage (issue 24, item 5): the track named for the opening place plays
 * after the reader's first click, at the music channel's volume; the GM's `music` cue changes it; the
 * Settings slider acts on it at once. Voices: off by default (nothing is read aloud, their code not even loaded), on after the
 * setting, each spoken line read at the voice channel's volume. A test cannot listen: the screen
 * reports what its loops play once their files are decoded and the gains its nodes hold
 * (`data-testid="sound"`), and what speech synthesis was asked to say.
 *
 * Debian's headless Chromium has no speech voices (speechSynthesis.getVoices() is empty), so when the
 * browser has none the page's speechSynthesis is replaced by a recorder with two English voices; a
 * browser with voices of its own is used as it is (the test then reads what the screen reports).
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';
import { presetContent } from './presets-helpers';
import { readToEnd, say } from './play-helpers';
import { MUSIC_REPLY, GATE_REPLY } from '../mock-llm/adv-play';
import { mp3File } from '../helpers/audio';

const SHOTS = 'test-results/play/music';
const sound = (page: Page) => page.getByTestId('sound');
const voice = (page: Page) => page.getByTestId('voice');

/** Sets a range input the way a drag does (its `input` event). */
async function slide(page: Page, label: string, value: number): Promise<void> {
	await page.getByLabel(label, { exact: true }).evaluate((el, v) => {
		if (!(el instanceof HTMLInputElement)) throw new Error('not an input');
		el.value = String(v);
		el.dispatchEvent(new Event('input', { bubbles: true }));
	}, value);
}

interface Spoken {
	text: string;
	volume: number;
	voice: string | null;
}

test('the preset’s track plays after the first click at the music volume, a music cue changes it; voices are off until turned on', async ({
	page
}) => {
	test.setTimeout(180_000);
	await page.addInitScript(() => {
		localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' }));
		const w = window as unknown as { __spoken: Spoken[]; __stubbedVoices: boolean };
		w.__spoken = [];
		w.__stubbedVoices = false;
		if ('speechSynthesis' in window && window.speechSynthesis.getVoices().length > 0) return;
		w.__stubbedVoices = true;
		const voices = [
			{ voiceURI: 'test:en-a', name: 'Test English A', lang: 'en-US', default: true, localService: true },
			{ voiceURI: 'test:en-b', name: 'Test English B', lang: 'en-GB', default: false, localService: true }
		];
		class Utterance {
			volume = 1;
			voice: { name: string } | null = null;
			lang = '';
			constructor(readonly text: string) {}
		}
		const synth = {
			getVoices: () => voices,
			speak: (u: Utterance) => w.__spoken.push({ text: u.text, volume: u.volume, voice: u.voice?.name ?? null }),
			cancel: () => undefined,
			addEventListener: () => undefined,
			removeEventListener: () => undefined
		};
		Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
		Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
	});
	await signUp(page, uniqueName('music'));
	const created = await page.request.post('/api/v1/presets', { data: presetContent({ title: 'Music hall', tagline: 'Songs' }) });
	expect(created.status()).toBe(201);
	const { id } = (await created.json()) as { id: string };
	const put = async (path: string, body: Buffer) =>
		expect(
			(await page.request.put(`/api/v1/presets/${id}/audio/${path}`, { data: body, headers: { 'content-type': 'audio/mpeg' } })).status()
		).toBe(200);
	// The opening place's own track, and one the GM cues.
	await put(`music/${encodeURIComponent('Reading Room')}`, mp3File(40));
	await put('music/Storm', mp3File(60, false));
	const started = await page.request.post('/api/v1/sessions', { data: { preset: id, title: 'Music hall' } });
	expect(started.status()).toBe(201);
	const { id: sessionId } = (await started.json()) as { id: string };
	await page.goto(`/sessions/${sessionId}`);
	await expect(page.getByTestId('title-card')).toBeVisible();
	await page.waitForLoadState('networkidle');
	await expect(sound(page)).toHaveAttribute('data-state', 'off');
	await expect(sound(page)).toHaveAttribute('data-music', '');

	await page.getByTestId('title-card').click();
	await expect(sound(page)).toHaveAttribute('data-state', 'running');
	await expect(sound(page)).toHaveAttribute('data-music', 'Reading Room');
	await expect(sound(page)).toHaveAttribute('data-music-gain', '0.6000000238418579');
	await page.keyboard.press('Enter');
	await readToEnd(page);

	await say(page, '#music Storm', MUSIC_REPLY);
	await expect(sound(page)).toHaveAttribute('data-music', 'Storm');
	await say(page, '#music none', MUSIC_REPLY);
	await expect(sound(page)).toHaveAttribute('data-music', '');
	await say(page, '#music Storm', MUSIC_REPLY);
	await expect(sound(page)).toHaveAttribute('data-music', 'Storm');

	// Voices are off by default: a spoken line is not read aloud.
	await expect(voice(page)).toHaveCount(0);
	await say(page, '#gate', GATE_REPLY.split('\n')[0] ?? '');
	expect(await page.evaluate(() => (window as unknown as { __spoken: Spoken[] }).__spoken)).toEqual([]);

	await page.getByTestId('text-window').locator('a[href="#settings"]').click();
	await slide(page, 'Music volume', 30);
	await expect(sound(page)).toHaveAttribute('data-music-gain', '0.30000001192092896');
	await slide(page, 'Voice volume', 40);
	await page.getByLabel('Read lines aloud', { exact: true }).check();
	await expect(voice(page)).toHaveAttribute('data-on', 'true');
	const stubbed = await page.evaluate(() => (window as unknown as { __stubbedVoices: boolean }).__stubbedVoices);
	test
		.info()
		.annotations.push({ type: 'speech', description: stubbed ? 'speechSynthesis stubbed (no voices in this browser)' : 'real voices' });
	if (stubbed) await expect(page.getByLabel('Voice of Ilse', { exact: true })).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/settings-en-desktop.png` });
	await page.setViewportSize({ width: 390, height: 844 });
	await page.getByLabel('Read lines aloud', { exact: true }).scrollIntoViewIfNeeded();
	await page.screenshot({ path: `${SHOTS}/settings-en-phone.png` });
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.keyboard.press('Escape');

	await say(page, '#gate', GATE_REPLY.split('\n')[0] ?? '');
	await expect(voice(page)).toHaveAttribute('data-speaking', /Bram|Ana|^$/);
	if (stubbed) {
		const spoken = await page.evaluate(() => (window as unknown as { __spoken: Spoken[] }).__spoken);
		expect(spoken.map((s) => s.text)).toEqual(expect.arrayContaining(['Halt! Who goes there?', 'Easy, Bram. It is only a traveller.']));
		for (const s of spoken) expect(s.volume).toBeCloseTo(0.4);
		expect(new Set(spoken.map((s) => s.voice)).size).toBeGreaterThanOrEqual(1);
	}
});

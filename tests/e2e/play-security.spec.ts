/**
 * The play screen under the Content-Security-Policy, against the built app and the scripted mock LLM:
 * the title card and prologue play, a turn streams over SSE, the stage's images (SVG placeholders,
 * then generated ones) load, the log, every drawer, the settings, the keys and the menu open — and the
 * browser reports no policy violation and no console error. The page sends its security headers and
 * cannot be framed by a page on another port of the same host.
 */
import { test, expect, type Page } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, setValue, createSession } from './helpers';

const SHOTS = 'test-results/play-security';
const Messages = v.object({ messages: v.array(v.unknown()) });

/** Collects CSP violations (the DOM event, across navigations) and console errors of the page. */
async function watchPolicy(page: Page): Promise<{ violations: string[]; consoleErrors: string[] }> {
	const violations: string[] = [];
	const consoleErrors: string[] = [];
	await page.exposeFunction('kanteraReportViolation', (text: string) => violations.push(text));
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) => {
			const report: unknown = Reflect.get(window, 'kanteraReportViolation');
			if (typeof report === 'function')
				Reflect.apply(report, undefined, [`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`]);
		});
	});
	page.on('console', (message) => {
		if (message.type() === 'error') consoleErrors.push(message.text());
	});
	page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
	return { violations, consoleErrors };
}

const input = (page: Page) => page.getByLabel('What do you do?');

/** Whole paragraphs at once: the reader's speed, kept in this browser. */
async function instantText(page: Page): Promise<void> {
	await page.addInitScript(() => localStorage.setItem('kantera.reader', JSON.stringify({ speed: 'instant' })));
}

/** Enter until the window asks for the player's line. */
async function readToEnd(page: Page): Promise<void> {
	for (let i = 0; i < 30 && !(await input(page).isVisible()); i++) await page.keyboard.press('Enter');
	await expect(input(page)).toBeVisible();
}

/**
 * Creates a session (its play page opens) and reads to the player's turn: Vesca starts from its title
 * card and plays its prologue; an empty world waits for the first line at once.
 */
async function startGame(page: Page, title: string, world: 'Vesca' | 'Empty world'): Promise<string> {
	const id = await createSession(page, title, new RegExp(world));
	if (world === 'Vesca') {
		await expect(page.getByTestId('title-card')).toBeVisible();
		await page.keyboard.press('Enter');
	}
	await readToEnd(page);
	return id;
}

async function messages(page: Page, id: string): Promise<unknown[]> {
	return v.parse(Messages, await (await page.request.get(`/api/v1/sessions/${id}/messages`)).json()).messages;
}

test(
	'a turn plays under the CSP: title card and prologue, SSE, placeholders and images, log, drawers, ' +
		'settings, help and menu, with no violation reported',
	async ({ page }) => {
		const { violations, consoleErrors } = await watchPolicy(page);
		await instantText(page);
		await signUp(page, uniqueName('csp'));
		// A world with a title card and a prologue: its pictures and the cast on stage load under the policy too.
		await startGame(page, 'Gate under policy', 'Vesca');

		const response = await page.reload();
		const headers = response?.headers() ?? {};
		const csp = headers['content-security-policy'] ?? '';
		expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
		expect(csp).toContain("frame-ancestors 'none'");
		expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
		expect(headers['x-content-type-options']).toBe('nosniff');
		expect(headers['referrer-policy']).toBe('same-origin');
		expect(headers['permissions-policy']).toContain('camera=()');
		expect(headers['x-frame-options']).toBe('DENY');
		// Plain http: no HSTS (readme-start.spec.ts checks it is sent for an https ORIGIN).
		expect(headers['strict-transport-security']).toBeUndefined();
		await readToEnd(page);

		await input(page).fill('I walk up to the north gate. #gate');
		await page.getByRole('button', { name: 'Send' }).click();
		await expect(page.getByTestId('line-text')).toHaveText('Fog hangs over the north gate.');
		await expect(page.locator('.stage [data-scene]')).toHaveAttribute('data-scene', 'North Gate', { timeout: 15_000 });
		await expect(page.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
		await page.getByTestId('text-window').click();
		await expect(page.getByTestId('speaker')).toHaveText('Bram');
		const left = page.locator('[data-slot="left"]');
		await expect(left).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
		await expect(left.locator('img')).toHaveJSProperty('complete', true);
		expect(await left.locator('img').evaluate((img) => (img instanceof HTMLImageElement ? img.naturalWidth : 0))).toBeGreaterThan(0);

		// The log puts a past line on the stage; back to the story.
		await page.keyboard.press('l');
		await page
			.getByRole('dialog', { name: 'Backlog' })
			.getByRole('option', { name: /Halt! Who goes there\?/ })
			.click();
		await page.getByRole('button', { name: 'Back to the story' }).click();
		// Every drawer and overlay, each of which loads its records through the API.
		const hud = page.getByRole('navigation', { name: 'Records and menu' });
		for (const name of ['State', 'Journal', 'Documents']) {
			await hud.getByRole('link', { name, exact: true }).click();
			await expect(page.getByRole('dialog', { name })).toBeVisible();
			await page.screenshot({ path: `${SHOTS}/drawer-${name.toLowerCase()}.png` });
			await page.keyboard.press('Escape');
			await expect(page.getByRole('dialog')).toHaveCount(0);
		}
		await page.getByRole('navigation', { name: 'Quick menu' }).getByRole('link', { name: 'Settings' }).click();
		const settings = page.getByRole('dialog', { name: 'Settings' });
		await expect(settings.getByRole('heading', { name: 'Screen language' })).toBeVisible();
		await page.screenshot({ path: `${SHOTS}/settings.png` });
		await page.keyboard.press('Escape');
		await page.keyboard.press('?');
		await expect(page.getByRole('dialog', { name: 'Keys and controls' })).toBeVisible();
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
		await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
		await page.screenshot({ path: `${SHOTS}/play-under-csp.png` });

		expect(violations).toEqual([]);
		expect(consoleErrors).toEqual([]);
	}
);

test('the turn form refuses a control character with a message and sends nothing', async ({ page }) => {
	await signUp(page, uniqueName('nulturn'));
	const id = await startGame(page, 'Quiet gate', 'Empty world');
	await setValue(page, 'What do you do?', 'I knock\u0000 twice');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByText(/The text contains a control character/)).toBeVisible();
	await page.screenshot({ path: `${SHOTS}/control-character.png` });
	expect(await messages(page, id)).toEqual([]);
});

test('a page on another port of the same host cannot frame the play page', async ({ page }) => {
	await signUp(page, uniqueName('frame'));
	const id = await startGame(page, 'Framed gate', 'Empty world');
	const playUrl = new URL(`/sessions/${id}`, page.url()).href;
	// Another origin on this host (the suite's other server), in the signed-in browser.
	const attacker = await page.context().newPage();
	await attacker.goto(`http://127.0.0.1:${process.env.KANTERA_E2E_PORT}/healthz`);
	await attacker.evaluate((src) => {
		const frame = document.createElement('iframe');
		frame.src = src;
		frame.width = '800';
		frame.height = '500';
		document.body.append(frame);
	}, playUrl);
	const framed = await (await attacker.locator('iframe').elementHandle()).contentFrame();
	if (!framed) throw new Error('no frame');
	// Wait until the frame has left about:blank and finished loading whatever it was given.
	await expect.poll(() => framed.url()).not.toMatch(/^(about:blank)?$/);
	await framed.waitForLoadState('load');
	await attacker.screenshot({ path: `${SHOTS}/framing-refused.png` });
	// Nothing of Kantera shows in the frame: not the play page, not even a sign-in form to click-jack.
	expect(await framed.getByRole('link', { name: 'Kantera' }).count()).toBe(0);
	expect(await framed.locator('form, [data-testid="text-window"]').count()).toBe(0);
	await attacker.close();
});

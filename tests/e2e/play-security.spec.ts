/**
 * The play screen under the Content-Security-Policy, against the built app and the scripted mock LLM:
 * a turn streams over SSE, the stage's images (SVG placeholders, then generated ones) load, the backlog
 * and every side panel open — and the browser reports no policy violation and no console error. The
 * page sends its security headers and cannot be framed by a page on another port of the same host.
 */
import { test, expect, type Page } from '@playwright/test';
import * as v from 'valibot';
import { uniqueName, signUp, setValue } from './helpers';

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
			if (typeof report === 'function') report(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
		});
	});
	page.on('console', (message) => {
		if (message.type() === 'error') consoleErrors.push(message.text());
	});
	page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
	return { violations, consoleErrors };
}

async function startGame(page: Page, title: string): Promise<string> {
	await page.goto('/');
	await page.getByLabel('Title').fill(title);
	await page.getByRole('radio', { name: /Vesca/ }).check();
	await page.getByRole('button', { name: 'Create' }).click();
	await page.getByRole('link', { name: title, exact: true }).click();
	await expect(page).toHaveURL(/\/sessions\/[a-z2-7]{20}$/);
	const id = /\/sessions\/([a-z2-7]{20})$/.exec(page.url())?.[1];
	if (!id) throw new Error(`unexpected play URL ${page.url()}`);
	await page.getByLabel('Text speed').selectOption('instant');
	return id;
}

test('a turn plays under the CSP: SSE, placeholders and images, backlog and panels, with no violation reported', async ({ page }) => {
	const { violations, consoleErrors } = await watchPolicy(page);
	await signUp(page, uniqueName('csp'));
	await startGame(page, 'Gate under policy');

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

	await page.getByLabel('What do you do?').fill('I walk up to the north gate. #gate');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByTestId('line-text')).toHaveText('Fog hangs over the north gate.');
	await expect(page.locator('[data-scene]')).toHaveAttribute('data-scene', 'North Gate', { timeout: 15_000 });
	await expect(page.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
	await page.getByTestId('text-window').click();
	await expect(page.getByTestId('speaker')).toHaveText('Bram');
	const left = page.locator('[data-slot="left"]');
	await expect(left).toHaveAttribute('data-image', 'ready', { timeout: 20_000 });
	await expect(left.locator('img')).toHaveJSProperty('complete', true);
	expect(await left.locator('img').evaluate((img) => (img instanceof HTMLImageElement ? img.naturalWidth : 0))).toBeGreaterThan(0);

	await page.getByRole('listbox').getByRole('option', { name: /Halt! Who goes there\?/ }).click();
	await page.getByRole('button', { name: 'Back to the story' }).click();
	for (const tab of ['Journal', 'Documents', 'Settings', 'State']) {
		await page.getByRole('tab', { name: tab }).click();
		await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
	}
	await page.screenshot({ path: `${SHOTS}/play-under-csp.png` });

	expect(violations).toEqual([]);
	expect(consoleErrors).toEqual([]);
});

test('the turn form refuses a control character with a message and sends nothing', async ({ page }) => {
	await signUp(page, uniqueName('nulturn'));
	const id = await startGame(page, 'Quiet gate');
	await setValue(page, 'What do you do?', 'I knock\u0000 twice');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByText(/The text contains a control character/)).toBeVisible();
	const response = await page.request.get(`/api/v1/sessions/${id}/messages`);
	expect(v.parse(Messages, await response.json()).messages).toEqual([]);
});

test('a page on another port of the same host cannot frame the play page', async ({ page }) => {
	await signUp(page, uniqueName('frame'));
	const id = await startGame(page, 'Framed gate');
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
	const framed = await (await attacker.locator('iframe').elementHandle())?.contentFrame();
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

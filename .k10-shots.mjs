// Screenshots of the operator pages and the tokens page (temporary helper, not committed).
import { chromium } from '@playwright/test';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [, , outDir, mode] = process.argv;
mkdirSync(outDir, { recursive: true });
const dataDir = mkdtempSync(path.join(tmpdir(), 'k10-shots-'));
const port = 3000 + Math.floor(Math.random() * 2000) + 2000;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), KANTERA_DATA_DIR: dataDir };
const admin = 'kantera-operator';
execFileSync(process.execPath, ['bin/kantera.js', 'user', 'create', '--name', admin, '--password-stdin', '--admin'], { env, input: 'correct horse battery\n' });
const server = spawn(process.execPath, ['bin/start.js'], { env, stdio: 'ignore', detached: true });
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
	try { if ((await fetch(`${url}/healthz`)).ok) break; } catch {}
	await new Promise((r) => setTimeout(r, 200));
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
	for (const lang of ['ja', 'en']) {
		const context = await browser.newContext({ baseURL: url, viewport: { width: 1100, height: 800 } });
		await context.addCookies([{ name: 'kantera_lang', value: lang, url }]);
		const page = await context.newPage();
		await page.goto('/signin');
		await page.locator('input[name="name"]').fill(admin);
		await page.locator('input[name="password"]').fill('correct horse battery');
		await page.locator('form button[type="submit"]').last().click();
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
		await page.goto('/');
		await page.locator('header').screenshot({ path: `${outDir}/header-1100-${lang}.png` });
		if (mode !== 'header') {
			await page.goto('/settings/tokens');
			await page.locator('#token-name').fill('laptop');
			await page.locator('form[action="?/create"] button[type="submit"]').click();
			await page.waitForTimeout(500);
			for (const p of ['admin/usage', 'admin/users', 'admin/reports', 'settings/tokens']) {
				await page.goto(`/${p}`);
				await page.waitForTimeout(300);
				await page.screenshot({ path: `${outDir}/${p.replace('/', '-')}-${lang}.png`, fullPage: true });
			}
		}
		await context.close();
	}
} finally {
	await browser.close();
	process.kill(-server.pid, 'SIGTERM');
}

/**
 * Component and performance tests of the backlog and side panels, in Debian's Chromium, against the
 * harness page (tests/panels/harness) with the API answered by the test itself: no app server.
 * Run: npm run bench:backlog
 */
import { defineConfig, devices } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
	testDir: 'perf',
	outputDir: '../../test-results/panels',
	workers: 1,
	retries: 0,
	reporter: [['list']],
	timeout: 120_000,
	use: {
		baseURL: 'http://harness.test',
		screenshot: 'on',
		launchOptions: {
			executablePath: CHROMIUM,
			args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking']
		}
	},
	projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }]
});

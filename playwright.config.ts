/**
 * End-to-end tests against the BUILT app, started as the README says (`npm start`), driven by Debian's
 * Chromium. Each run gets a fresh data directory and a free port, so runs never see each other's accounts.
 */
import { defineConfig, devices } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appEnvFor } from './tests/oidc/clients';

/** Asks the OS for a free port in a child process, because the config must be built synchronously. */
function freePort(): string {
	const script =
		"const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
	return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

// This file is loaded by the runner and again by every worker. The runner chooses the port and the
// data dir; the workers inherit them through the environment, so all agree on one server.
process.env.KANTERA_E2E_PORT ||= freePort();
process.env.KANTERA_E2E_DATA_DIR ||= mkdtempSync(path.join(tmpdir(), 'kantera-e2e-'));
const port = process.env.KANTERA_E2E_PORT;
const dataDir = process.env.KANTERA_E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;

// The play screen's tests need a game master: a second app server with an LLM configured, pointed at
// the scripted mock LLM (tests/mock-llm, scenario adv-play). The first server keeps the offline
// defaults (no LLM), which the other tests check.
process.env.KANTERA_E2E_PLAY_PORT ||= freePort();
process.env.KANTERA_E2E_MOCK_PORT ||= freePort();
const playPort = process.env.KANTERA_E2E_PLAY_PORT;
const mockPort = process.env.KANTERA_E2E_MOCK_PORT;
const playURL = `http://127.0.0.1:${playPort}`;
/** play*.spec.ts run against the LLM server, except play-no-llm*.spec.ts. */
const PLAY_SPECS = /play(?!-no-llm)[^/]*\.spec\.ts$/;

// Sign-in through providers: a real OpenID Connect provider (oidc-provider, tests/oidc) and a third app
// server configured for it (as the generic OIDC provider and as the Google preset), with local accounts off.
process.env.KANTERA_E2E_AUTH_PORT ||= freePort();
process.env.KANTERA_E2E_IDP_PORT ||= freePort();
const authPort = process.env.KANTERA_E2E_AUTH_PORT;
const idpPort = process.env.KANTERA_E2E_IDP_PORT;
const authURL = `http://127.0.0.1:${authPort}`;
const idpURL = `http://127.0.0.1:${idpPort}`;
/** auth-*.spec.ts run against the sign-in server. */
const AUTH_SPECS = /auth-[^/]*\.spec\.ts$/;

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Flags for a container with no GPU, no user namespaces and no outside network. */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
];
const SERVER_START_TIMEOUT_MS = 60_000;
/**
 * The app servers' output is echoed into the run's: without their line per request and per turn
 * (KANTERA_LOG_LEVEL=warn), so what shows is warnings and errors. readme-start and runtimes start
 * servers of their own, with the default level, and check those lines.
 */
const QUIET_LOGS = { KANTERA_LOG_LEVEL: 'warn' };

export default defineConfig({
	testDir: 'tests/e2e',
	outputDir: 'test-results',
	globalTeardown: './tests/e2e/global-teardown.ts',
	fullyParallel: false,
	// Two cores: one for the server, one for the browser.
	workers: 1,
	forbidOnly: !!process.env.CI,
	retries: 0,
	reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
	timeout: 60_000,
	expect: { timeout: 10_000 },
	use: {
		baseURL,
		// Screenshots of every test are kept under test-results/ for a person to look at.
		screenshot: 'on',
		trace: 'retain-on-failure',
		launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS }
	},
	projects: [
		{ name: 'chromium', testIgnore: [PLAY_SPECS, AUTH_SPECS], use: { ...devices['Desktop Chrome'] } },
		{ name: 'auth', testMatch: AUTH_SPECS, use: { ...devices['Desktop Chrome'], baseURL: authURL } },
		{ name: 'play', testMatch: PLAY_SPECS, use: { ...devices['Desktop Chrome'], baseURL: playURL } }
	],
	webServer: [
		{
			// No ORIGIN: the README's path (the app takes the browser's http:// origin from the connection).
			command: 'npm start',
			url: `${baseURL}/healthz`,
			reuseExistingServer: false,
			timeout: SERVER_START_TIMEOUT_MS,
			stdout: 'pipe',
			stderr: 'pipe',
			env: {
				PORT: port,
				HOST: '127.0.0.1',
				KANTERA_DATA_DIR: dataDir,
				KANTERA_ALLOW_SIGNUP: 'true',
				...QUIET_LOGS
			}
		},
		{
			command: `node --import tsx tests/mock-llm/cli.ts --port ${mockPort} --scenario adv-play`,
			port: Number(mockPort),
			reuseExistingServer: false,
			timeout: SERVER_START_TIMEOUT_MS,
			stdout: 'pipe',
			stderr: 'pipe'
		},
		{
			// With ORIGIN, as behind a proxy.
			command: 'npm start',
			url: `${playURL}/healthz`,
			reuseExistingServer: false,
			timeout: SERVER_START_TIMEOUT_MS,
			stdout: 'pipe',
			stderr: 'pipe',
			env: {
				PORT: playPort,
				HOST: '127.0.0.1',
				ORIGIN: playURL,
				// Inside the run's data dir, so the global teardown removes it too.
				KANTERA_DATA_DIR: path.join(dataDir, 'play'),
				KANTERA_ALLOW_SIGNUP: 'true',
				OPENAI_BASE_URL: `http://127.0.0.1:${mockPort}/v1`,
				OPENAI_API_KEY: 'e2e-mock-key',
				KANTERA_LLM_MODEL: 'mock-model',
				// The mock model gets a price and the server budgets, so the spend panel and the usage page have money to show.
				KANTERA_PRICES_FILE: 'tests/fixtures/prices/e2e.json',
				KANTERA_BUDGET_SESSION_USD: '5',
				KANTERA_BUDGET_USER_DAY_USD: '20',
				...QUIET_LOGS
			}
		},
		{
			command: `node --import tsx tests/oidc/cli.ts --port ${idpPort} --app ${authURL}`,
			url: `${idpURL}/.well-known/openid-configuration`,
			reuseExistingServer: false,
			timeout: SERVER_START_TIMEOUT_MS,
			stdout: 'pipe',
			stderr: 'pipe'
		},
		{
			command: 'npm start',
			url: `${authURL}/healthz`,
			reuseExistingServer: false,
			timeout: SERVER_START_TIMEOUT_MS,
			stdout: 'pipe',
			stderr: 'pipe',
			env: {
				PORT: authPort,
				HOST: '127.0.0.1',
				KANTERA_DATA_DIR: path.join(dataDir, 'auth'),
				KANTERA_LOCAL_ACCOUNTS: 'false',
				...appEnvFor(idpURL),
				...QUIET_LOGS
			}
		}
	]
});

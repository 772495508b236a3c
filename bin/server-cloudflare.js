// @ts-check
// What `KANTERA_ADAPTER=cloudflare npm start` runs (bin/start.js imports it): the Worker build (build-cloudflare/)
// under workerd on this machine, through `wrangler dev --local` as wrangler.jsonc describes it, with what `npm start`
// gives every other target:
// - PORT and HOST say where it listens (3000 on all interfaces by default); SOCKET_PATH has no meaning here;
// - the app's settings are this process's variables (KANTERA_*, OPENAI_*, ANTHROPIC_*, GOOGLE_*), handed to the
//   Worker as its variables through a file only this user can read (not on the command line, where `ps` shows them);
// - the Durable Objects' storage (each session's alarm) lives under KANTERA_DATA_DIR (./data by default);
// - nothing is fetched from the network: wrangler's usage reports and its download of Cloudflare's request
//   metadata are turned off (workerd itself comes with npm ci);
// - SIGTERM/SIGINT stop wrangler, which stops workerd.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StartError, startOrExit, startSettings } from './server-setup.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The app's own settings: everything its configuration reads (src/lib/server/config). */
const APP_VARIABLE = /^(KANTERA_|OPENAI_|ANTHROPIC_|GOOGLE_)/;

/**
 * The Worker's variables from this process's environment, as a .env file's lines; values are quoted so that none
 * is read as anything else (a `#`, spaces, a quote of the other kind).
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function workerVariables(env) {
	const lines = [];
	for (const [name, value] of Object.entries(env)) {
		if (!APP_VARIABLE.test(name) || value === undefined) continue;
		const quote = ["'", '"', '`'].find((q) => !value.includes(q));
		if (quote === undefined || /[\r\n]/.test(value))
			throw new StartError(
				`Invalid configuration:\n  ${name}: a value for the Worker may not hold a line break or all three kinds of quote`
			);
		// wrangler expands `$NAME` in a .env value (dotenv-expand); `\$` is a dollar sign.
		lines.push(`${name}=${quote}${value.replaceAll('$', '\\$')}${quote}`);
	}
	return lines.join('\n') + '\n';
}

/**
 * Start-up decisions, or StartError naming what is wrong.
 * @param {Record<string, string | undefined>} env
 */
export function cloudflareSettings(env) {
	const start = startSettings(env);
	if ('path' in start.listen)
		throw new StartError('Invalid configuration:\n  SOCKET_PATH: the Worker listens on a port (PORT, HOST), not on a socket');
	if ((env.KANTERA_SCHEDULER ?? 'request') !== 'request')
		throw new StartError(
			`Invalid configuration:\n  KANTERA_SCHEDULER: must be request on Workers, which stop a request's work when it ends (got "${env.KANTERA_SCHEDULER ?? ''}")`
		);
	return { listen: start.listen, variables: workerVariables(env), dataDir: path.resolve(env.KANTERA_DATA_DIR || './data') };
}

const settings = startOrExit('cloudflare', () => cloudflareSettings(process.env));
const dir = mkdtempSync(path.join(tmpdir(), 'kantera-worker-'));
const envFile = path.join(dir, 'worker.env');
writeFileSync(envFile, settings.variables, { mode: 0o600 });
const wrangler = path.join(path.dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const { host, port } = settings.listen;
const child = spawn(
	process.execPath,
	[
		wrangler,
		'dev',
		'--local',
		'--config',
		path.join(ROOT, 'wrangler.jsonc'),
		'--ip',
		host,
		'--port',
		String(port),
		'--env-file',
		envFile,
		'--persist-to',
		path.join(settings.dataDir, 'wrangler'),
		'--show-interactive-dev-session=false',
		'--live-reload=false'
	],
	{
		cwd: ROOT,
		stdio: 'inherit',
		env: {
			...process.env,
			WRANGLER_SEND_METRICS: 'false',
			CLOUDFLARE_CF_FETCH_ENABLED: 'false'
		}
	}
);
const cleanUp = () => rmSync(dir, { recursive: true, force: true });
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(signal, () => child.kill(signal));
child.on('error', (err) => {
	cleanUp();
	console.error(`Could not start wrangler: ${err.message}. Run \`npm ci\` to install it (it is a dev dependency).`);
	process.exit(1);
});
child.on('exit', (code, signal) => {
	cleanUp();
	process.exit(code ?? (signal ? 1 : 0));
});

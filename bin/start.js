#!/usr/bin/env node
// @ts-check
// What `npm start` runs: the build for KANTERA_ADAPTER (node when unset) under its runtime. Node's
// server runs in this process; Bun and Deno come from the project's own dev dependencies (nothing to
// install besides `npm ci`) and run as a child that gets this process's signals and exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TARGETS, TargetError, targetOf } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {import('./targets.js').Target} */
function targetOrExit() {
	try {
		return targetOf(process.env.KANTERA_ADAPTER);
	} catch (err) {
		if (!(err instanceof TargetError)) throw err;
		console.error(err.message);
		process.exit(1);
	}
}

const target = targetOrExit();
if (!existsSync(path.join(ROOT, target.entry))) {
	const built = Object.values(TARGETS).filter((t) => existsSync(path.join(ROOT, t.entry)));
	const build = target.name === 'node' ? 'npm run build' : `KANTERA_ADAPTER=${target.name} npm run build`;
	const others = built.length ? ` (built: ${built.map((t) => t.name).join(', ')}; start one with KANTERA_ADAPTER=NAME npm start)` : '';
	console.error(`There is no ${target.name} build to start: run \`${build}\` first${others}.`);
	process.exit(1);
}

const server = path.join(ROOT, 'bin', target.server);
if (target.name === 'node' || target.name === 'cloudflare') {
	// Node's server, or the Node script that runs wrangler (the Cloudflare target).
	await import(pathToFileURL(server).href);
} else {
	const [command, ...args] = runtimeCommand(target.name);
	if (args.includes('--deny-ffi')) console.log('Deno runs with --deny-ffi: every database is remote, no native code is loaded.');
	const child = spawn(command, [...args, server], {
		cwd: ROOT,
		stdio: 'inherit',
		// Deno would otherwise look for a newer release online at every start.
		env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' }
	});
	for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) {
		process.on(signal, () => child.kill(signal));
	}
	child.on('error', (err) => {
		console.error(`Could not start ${target.name}: ${err.message}. Run \`npm ci\` to install it (it is a dev dependency).`);
		process.exit(1);
	});
	child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * The runtime's executable (installed by its npm package) and the flags it runs a server with.
 * @param {'bun' | 'deno'} name
 * @returns {[string, ...string[]]}
 */
function runtimeCommand(name) {
	const dir = path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
	if (name === 'bun') {
		// Like Node, Bun must not read .env files by itself: the same checkout runs with the same settings.
		return [path.join(dir, 'bin', 'bun.exe'), '--no-env-file'];
	}
	// deno's install script puts the binary beside its package.json; its bin.cjs is a Node launcher for it.
	const native = path.join(dir, process.platform === 'win32' ? 'deno.exe' : 'deno');
	/** @type {[string, ...string[]]} */
	const exe = existsSync(native) ? [native] : [process.execPath, path.join(dir, 'bin.cjs')];
	// -A: a local database file needs the libSQL driver, a native addon (FFI), which no narrower permission
	// set can contain anyway. With every database remote the app loads only the driver's web entry (db/client.ts),
	// so native code is denied outright (--deny-ffi wins over -A).
	// --no-lock: no deno.lock is written into the checkout; packages come from node_modules as npm installed them.
	// --unstable-no-legacy-abort: request.signal aborts when the client goes away, not also after every
	// answer (Deno's old default); the same meaning it has under Node and Bun.
	const ffi = everyDatabaseRemote(process.env) ? ['--deny-ffi'] : [];
	return [...exe, 'run', '-A', ...ffi, '--no-lock', '--node-modules-dir=manual', '--unstable-no-legacy-abort'];
}

/**
 * Whether the control database and the session databases are all on a libSQL server (their URLs set, none
 * a `file:`): then nothing needs native code.
 * @param {NodeJS.ProcessEnv} env
 */
function everyDatabaseRemote(env) {
	const urls = [env.KANTERA_CONTROL_DB_URL, env.KANTERA_SESSION_DB_URL];
	return urls.every((url) => url !== undefined && url.trim() !== '' && !url.trim().startsWith('file:'));
}

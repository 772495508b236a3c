/**
 * The first steps every server takes (bin/server-setup.js `startOrExit`), run as `npm start` runs each
 * server under its own runtime: a bad setting, or a target that was never built, ends the start with a
 * message and exit code 1 before anything listens.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RUNTIMES = {
	node: { script: 'server.js', command: [process.execPath] },
	bun: { script: 'server-bun.js', command: [path.join(ROOT, 'node_modules/bun/bin/bun.exe'), '--no-env-file'] },
	deno: {
		script: 'server-deno.js',
		command: [path.join(ROOT, 'node_modules/deno/deno'), 'run', '-A', '--no-lock', '--node-modules-dir=manual']
	}
} as const;

/** A checkout with the start scripts and the installed packages but no build of any target. */
const unbuilt = mkdtempSync(path.join(tmpdir(), 'kantera-unbuilt-'));
cpSync(path.join(ROOT, 'bin'), path.join(unbuilt, 'bin'), { recursive: true });
cpSync(path.join(ROOT, 'package.json'), path.join(unbuilt, 'package.json'));
symlinkSync(path.join(ROOT, 'node_modules'), path.join(unbuilt, 'node_modules'), 'dir');
afterAll(() => rmSync(unbuilt, { recursive: true, force: true }));

function start(runtime: keyof typeof RUNTIMES, root: string, env: Record<string, string>) {
	const { script, command } = RUNTIMES[runtime];
	const [exe = '', ...args] = command;
	return spawnSync(exe, [...args, path.join(root, 'bin', script)], {
		cwd: root,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DENO_NO_UPDATE_CHECK: '1', ...env },
		encoding: 'utf8',
		timeout: 60_000
	});
}

describe.each(Object.keys(RUNTIMES) as Array<keyof typeof RUNTIMES>)('%s server', (runtime) => {
	it('stops at a bad setting with its message, before looking for a build', { timeout: 60_000 }, () => {
		const run = start(runtime, unbuilt, { PORT: 'eighty' });
		expect(run.stderr).toContain('PORT: must be a whole number');
		expect(run.stderr).not.toContain('build');
		expect(run.stdout).not.toContain('Listening');
		expect(run.status).toBe(1);
	});

	it('stops when its target was never built, saying how to build it', { timeout: 60_000 }, () => {
		const run = start(runtime, unbuilt, { PORT: '0' });
		const build = runtime === 'node' ? '`npm run build`' : `\`KANTERA_ADAPTER=${runtime} npm run build\``;
		expect(run.stderr).toContain(`There is no ${runtime} build to start: run ${build} first.`);
		expect(run.status).toBe(1);
	});
});

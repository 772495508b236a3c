/** KANTERA_ADAPTER: which runtimes a build is for and which one `npm start` runs (bin/targets.js, bin/start.js). */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { TARGETS, TargetError, targetOf, targetsOf } from '../../../bin/targets.js';
import { buildAdapter } from '../../../bin/adapters.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('KANTERA_ADAPTER', () => {
	it('is node when unset or empty, and names one target or several', () => {
		expect(targetsOf(undefined)).toEqual([TARGETS.node]);
		expect(targetsOf(' ')).toEqual([TARGETS.node]);
		expect(targetsOf('bun')).toEqual([TARGETS.bun]);
		expect(targetsOf('node, bun,deno,bun').map((t) => t.name)).toEqual(['node', 'bun', 'deno']);
		expect(targetOf('deno')).toBe(TARGETS.deno);
	});

	it('refuses anything else, naming the variable; npm start runs exactly one target', () => {
		expect(() => targetsOf('workerd')).toThrow(TargetError);
		expect(() => targetsOf('bun,')).toThrow(/KANTERA_ADAPTER: must be node, bun, deno or cloudflare/);
		expect(() => targetOf('node,bun')).toThrow(/KANTERA_ADAPTER: name the one target to start/);
	});

	it('gives each target its own build folder', () => {
		const outs = Object.values(TARGETS).map((t) => t.out);
		expect(new Set(outs).size).toBe(outs.length);
		for (const t of Object.values(TARGETS)) expect(t.entry.startsWith(`${t.out}/`)).toBe(true);
	});

	it('builds several targets with one adapter that runs each target’s own', async () => {
		expect((await buildAdapter(undefined)).name).toBe('@sveltejs/adapter-node');
		expect((await buildAdapter('bun')).name).toBe('svelte-adapter-bun');
		const all = await buildAdapter('node,bun,deno');
		expect(all.name).toBe('kantera (node, bun, deno)');
		expect(all.supports?.read?.({ config: {}, route: { id: '/' } })).toBe(true);
	});

	it('npm start stops with the message when it is wrong', () => {
		const run = spawnSync(process.execPath, ['bin/start.js'], {
			cwd: ROOT,
			env: { ...process.env, KANTERA_ADAPTER: 'workerd' },
			encoding: 'utf8'
		});
		expect(run.status).toBe(1);
		expect(run.stderr).toContain('KANTERA_ADAPTER: must be node, bun, deno or cloudflare (got "workerd")');
	});

	it('the runtimes come with npm ci (dev dependencies), nothing else to install', () => {
		expect(execFileSync(path.join(ROOT, 'node_modules/.bin/bun'), ['--version'], { encoding: 'utf8' })).toMatch(/^\d+\.\d+\.\d+/);
		expect(
			execFileSync(path.join(ROOT, 'node_modules/.bin/deno'), ['--version'], {
				encoding: 'utf8',
				env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' }
			})
		).toMatch(/^deno \d+\.\d+\.\d+/);
	});
});

/**
 * `kantera restore` and a running server: the server's lock file in the data directory (its pid, removed
 * when it exits) makes restore refuse and change nothing, unless --force; a lock whose process is gone is ignored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { tempDir } from '../../helpers/env';
import { kanteraInProcess } from '../../helpers/cli';
import { holdDataDir } from '../../../src/lib/server/db/local-files';
import { getApp, setAppForTests } from '../../../src/lib/server/app';
import { sqlText } from '../../../src/lib/server/db';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0).reverse()) c();
});

async function userNames(dir: string): Promise<string[]> {
	const c = createClient({ url: `file:${path.join(dir, 'control.db')}` });
	try {
		return (await c.execute('SELECT name FROM users ORDER BY name')).rows.map((r) => sqlText(r.name));
	} finally {
		c.close();
	}
}

/** Runs `script` (ES module code) in a child process with tsx; resolves with its pid once it has exited. */
function runChild(script: string): Promise<{ pid: number; code: number | null; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
			stdio: ['ignore', 'ignore', 'pipe']
		});
		let stderr = '';
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ pid: child.pid ?? 0, code, stderr }));
	});
}

const locks = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.lock'));

describe('kantera restore while a server holds the data directory', () => {
	it('refuses and changes nothing; --force restores; a lock of a process that is gone is ignored', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const out = tempDir();
		cleanups.push(() => out.remove());
		expect((await kanteraInProcess(d.dir, ['user', 'create', '--name', 'alice', '--password-stdin'], 'wonderland\n')).code).toBe(0);
		const backup = await kanteraInProcess(d.dir, ['backup', '--out', out.dir]);
		expect(backup.code).toBe(0);
		const from = backup.stdout.trim().split(/\s+/).pop() ?? '';
		// Written after the backup: what a refused restore must keep.
		expect((await kanteraInProcess(d.dir, ['user', 'create', '--name', 'bob', '--password-stdin'], 'builder-bob\n')).code).toBe(0);

		// This test process plays the running server.
		const lock = holdDataDir(d.dir);
		cleanups.push(() => rmSync(lock, { force: true }));
		const refused = await kanteraInProcess(d.dir, ['restore', '--from', from]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(`a Kantera server is using ${d.dir}: pid ${process.pid} on ${hostname()}`);
		expect(refused.stderr).toContain('nothing was restored');
		expect(await userNames(d.dir)).toEqual(['alice', 'bob']);

		const forced = await kanteraInProcess(d.dir, ['restore', '--from', from, '--force']);
		expect(forced.code).toBe(0);
		expect(forced.stderr).toContain('--force: restoring although a server holds');
		expect(await userNames(d.dir)).toEqual(['alice']);
		rmSync(lock);

		// A server that exits removes its lock; one killed outright leaves it behind, stale once its pid is gone.
		const module = path.resolve('src/lib/server/db/server-lock.ts');
		const exited = await runChild(`const m = await import(${JSON.stringify(module)}); m.holdDataDir(${JSON.stringify(d.dir)});`);
		expect(exited.stderr).toBe('');
		expect(exited.code).toBe(0);
		expect(locks(d.dir)).toEqual([]);
		const killed = await runChild(
			`const m = await import(${JSON.stringify(module)}); m.holdDataDir(${JSON.stringify(d.dir)}); process.kill(process.pid, 'SIGKILL');`
		);
		expect(killed.code).toBe(null);
		expect(locks(d.dir)).toEqual([`kantera-server-${killed.pid}.lock`]);
		expect((await kanteraInProcess(d.dir, ['user', 'create', '--name', 'carol', '--password-stdin'], 'carol-pass\n')).code).toBe(0);
		const afterCrash = await kanteraInProcess(d.dir, ['restore', '--from', from]);
		expect(afterCrash.stderr).not.toContain('server is using');
		expect(afterCrash.code).toBe(0);
		expect(await userNames(d.dir)).toEqual(['alice']);

		// A lock from another host cannot be checked from here: held, unless --force.
		writeFileSync(
			path.join(d.dir, 'kantera-server-1.lock'),
			JSON.stringify({ pid: 1, host: 'elsewhere', since: new Date().toISOString() })
		);
		const otherHost = await kanteraInProcess(d.dir, ['restore', '--from', from]);
		expect(otherHost.code).toBe(1);
		expect(otherHost.stderr).toContain('pid 1 on elsewhere');
		expect(existsSync(path.join(d.dir, 'control.db'))).toBe(true);
	});

	it('is taken by the server’s app (getApp) with its pid, before its databases are opened', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const before = process.env.KANTERA_DATA_DIR;
		process.env.KANTERA_DATA_DIR = d.dir;
		cleanups.push(() => {
			if (before === undefined) delete process.env.KANTERA_DATA_DIR;
			else process.env.KANTERA_DATA_DIR = before;
		});
		const app = await getApp();
		try {
			expect(locks(d.dir)).toEqual([`kantera-server-${process.pid}.lock`]);
			const refused = await kanteraInProcess(d.dir, ['restore', '--from', path.join(d.dir, 'no-backup-needed')]);
			expect(refused.code).toBe(1);
			expect(refused.stderr).toContain('a Kantera server is using');
		} finally {
			await app.close();
			setAppForTests(undefined);
			rmSync(path.join(d.dir, `kantera-server-${process.pid}.lock`), { force: true });
		}
	});
});

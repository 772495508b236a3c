/**
 * The server's hold on its data directory: while a server process runs, a lock file of its own
 * (`kantera-server-<pid>.lock`, holding its pid and host) lies in the data directory, so that `kantera
 * restore` can refuse to replace databases underneath it (what the server writes afterwards would be lost
 * at its next start). One file per process, as several server processes may share a data directory.
 * Removed when the process exits; one left by a process that died without exiting (SIGKILL, power loss)
 * is stale and ignored when its pid is no longer running on this host. Node's fs only: the server takes it
 * when its databases are local files (an isolate host has no data directory).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';

const LOCK_PATTERN = /^kantera-server-\d+\.lock$/;

const LockFile = v.object({ pid: v.pipe(v.number(), v.integer(), v.minValue(1)), host: v.string(), since: v.string() });

export interface ServerLock {
	file: string;
	pid: number;
	host: string;
	since: string;
}

function lockPath(dataDir: string, pid: number): string {
	return path.join(dataDir, `kantera-server-${pid}.lock`);
}

/** Takes this process's lock on `dataDir`, removed again when the process exits. */
export function holdDataDir(dataDir: string): string {
	mkdirSync(dataDir, { recursive: true });
	const file = lockPath(dataDir, process.pid);
	writeFileSync(file, `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() })}\n`);
	process.once('exit', () => rmSync(file, { force: true }));
	return file;
}

/** Whether `pid` is a running process here (EPERM: it runs, as another user). */
function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err instanceof Error && 'code' in err && err.code === 'EPERM';
	}
}

/**
 * The servers that hold `dataDir`: every lock whose process still runs, and every lock from another host
 * (whose processes cannot be seen from here). Stale locks and files that are not locks are left out.
 */
export function serversHolding(dataDir: string): ServerLock[] {
	let names: string[];
	try {
		names = readdirSync(dataDir).filter((n) => LOCK_PATTERN.test(n));
	} catch {
		return [];
	}
	const here = hostname();
	const held: ServerLock[] = [];
	for (const name of names) {
		const file = path.join(dataDir, name);
		let parsed: v.SafeParseResult<typeof LockFile>;
		try {
			parsed = v.safeParse(LockFile, JSON.parse(readFileSync(file, 'utf8')));
		} catch {
			continue; // removed meanwhile, or half written by a process that died at once
		}
		if (!parsed.success) continue;
		const lock = { file, ...parsed.output };
		if (lock.host !== here || running(lock.pid)) held.push(lock);
	}
	return held;
}

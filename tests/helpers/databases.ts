/**
 * Where a test app's databases live. By default: libSQL files in the test's temp dir. In the remote-mode
 * project (vitest project `remote`, see tests/remote/global-setup.ts) the Hrana test server's origin is
 * provided to that project's tests (`inject`), and every data dir gets its own databases on it, reached
 * through the real @libsql/client over HTTP: the control database by an `http://` URL, the session
 * databases by a `libsql://…?tls=0` template (both schemes are exercised in every remote run).
 *
 * Provided, not put in process.env: the setup runs in vitest's main process, whose environment every
 * worker inherits, and the `unit` project's tests would find the server too and leave their files.
 */
import { createClient } from '@libsql/client';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { newId } from '../../src/lib/server/db';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The Hrana test server's origin (remote project only). */
		hranaOrigin?: string;
		/** The directory of its database files (remote project only). */
		hranaDir?: string;
	}
}

export function remoteOrigin(): string | undefined {
	return inject('hranaOrigin') || undefined;
}

export function isRemoteRun(): boolean {
	return remoteOrigin() !== undefined;
}

/**
 * The environment variables that place an app's databases: `KANTERA_DATA_DIR` always, DB URLs when
 * remote. The same dir gives the same databases, as files do: a second app on a data dir shares them.
 */
export function databaseEnv(dir: string): Record<string, string> {
	const origin = remoteOrigin();
	if (!origin) return { KANTERA_DATA_DIR: dir };
	const prefix = `t${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16)}`;
	const { host } = new URL(origin);
	return {
		KANTERA_DATA_DIR: dir,
		KANTERA_CONTROL_DB_URL: `${origin}/${prefix}-control/`,
		KANTERA_SESSION_DB_URL: `libsql://${host}/${prefix}-s-{id}/?tls=0`
	};
}

/**
 * `databaseEnv(dir)` for a second app instance in this process. In the remote project: the same databases
 * through other URLs (the session template over `http://`, the control database over `libsql://…?tls=0`), so
 * the two apps' write transactions do not share this process's queue (db/write-lock.ts keys it by URL) and
 * meet at the server, as two processes' do. Local files keep their URLs: there the shared queue is what keeps
 * two instances in one process from blocking each other in the native driver's synchronous busy wait.
 */
export function secondInstanceEnv(dir: string): Record<string, string> {
	const env = databaseEnv(dir);
	const { KANTERA_CONTROL_DB_URL: control, KANTERA_SESSION_DB_URL: sessions } = env;
	if (control === undefined || sessions === undefined) return env;
	return {
		...env,
		KANTERA_CONTROL_DB_URL: `${control.replace(/^http:/, 'libsql:')}?tls=0`,
		KANTERA_SESSION_DB_URL: sessions.replace(/^libsql:/, 'http:').replace(/\?tls=0$/, '')
	};
}

/** The URL of a fresh, empty database: a file in `dir`, or a new database on the Hrana test server. */
export function freshDatabaseUrl(dir: string, name = 'x'): string {
	const origin = remoteOrigin();
	return origin ? `${origin}/t${newId(10)}-${name}/` : `file:${path.join(dir, `${name}.db`)}`;
}

/** Whether the database behind a `file:` URL or a Hrana test server URL exists (on disk, either way). */
export function databaseExists(url: string): boolean {
	if (url.startsWith('file:')) return existsSync(url.slice('file:'.length));
	const dir = inject('hranaDir');
	if (!dir) throw new Error('no Hrana test server: remote URLs can only be checked in the remote project');
	const name = new URL(url.replace(/^libsql:/, 'http:')).pathname.split('/').filter(Boolean)[0];
	return name !== undefined && existsSync(path.join(dir, `${name}.db`));
}

/**
 * Whether a deleted session's data is gone: its file removed, or (a plain libSQL server cannot delete
 * a database) the remote database emptied of every table, index, trigger and view.
 */
export async function databaseGone(url: string): Promise<boolean> {
	if (url.startsWith('file:')) return !databaseExists(url);
	const client = createClient({ url, intMode: 'number' });
	try {
		const rs = await client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
		return Number(rs.rows[0]?.n) === 0;
	} finally {
		client.close();
	}
}

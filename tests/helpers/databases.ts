/**
 * Where a test app's databases live. By default: libSQL files in the test's temp dir. In the remote-mode
 * project (vitest project `remote`, see tests/remote/global-setup.ts) the Hrana test server's origin is
 * in KANTERA_TEST_HRANA_ORIGIN, and every app gets its own databases on it, reached through the real
 * @libsql/client over HTTP: the control database by an `http://` URL, the session databases by a
 * `libsql://…?tls=0` template (both schemes are exercised in every remote run).
 */
import { createClient } from '@libsql/client';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { newId } from '../../src/lib/server/db';

export const HRANA_ORIGIN_VAR = 'KANTERA_TEST_HRANA_ORIGIN';
export const HRANA_DIR_VAR = 'KANTERA_TEST_HRANA_DIR';

export function remoteOrigin(): string | undefined {
	return process.env[HRANA_ORIGIN_VAR] || undefined;
}

export function isRemoteRun(): boolean {
	return remoteOrigin() !== undefined;
}

/** The environment variables that place an app's databases: `KANTERA_DATA_DIR` always, DB URLs when remote. */
export function databaseEnv(dir: string): Record<string, string> {
	const origin = remoteOrigin();
	if (!origin) return { KANTERA_DATA_DIR: dir };
	const prefix = `t${newId(10)}`;
	const { host } = new URL(origin);
	return {
		KANTERA_DATA_DIR: dir,
		KANTERA_CONTROL_DB_URL: `${origin}/${prefix}-control/`,
		KANTERA_SESSION_DB_URL: `libsql://${host}/${prefix}-s-{id}/?tls=0`
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
	const dir = process.env[HRANA_DIR_VAR];
	if (!dir) throw new Error(`${HRANA_DIR_VAR} is not set: remote URLs can only be checked in the remote project`);
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

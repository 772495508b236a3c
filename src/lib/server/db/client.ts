/**
 * Opening a libSQL client for a database URL. Local files (`file:`) use @libsql/client's native driver;
 * remote databases (`libsql:`, `https:`, `http:`, `wss:`, `ws:` — Turso or a libSQL server) use its
 * web entry, which needs nothing but `fetch`. The two are loaded on demand, so a deployment on remote
 * databases never loads the native binding nor `node:fs` (neither exists on an isolate host).
 */
import type { Client, IntMode } from '@libsql/client';
import { busyRetrying } from './busy';

/** How long a connection waits on a locked local database file before failing. */
const BUSY_TIMEOUT_MS = 5_000;

export function isFileUrl(url: string): boolean {
	return url.startsWith('file:');
}

/**
 * Opens a client whose statements and batches start again when they fail busy (busy.ts); for local
 * files the parent directory is created and WAL mode switched on.
 */
export async function openClient(
	url: string,
	authToken: string | undefined,
	concurrency: number,
	intMode: IntMode = 'number'
): Promise<Client> {
	if (isFileUrl(url)) {
		const { openFileClient } = await import('./file-client');
		return busyRetrying(await openFileClient(url, concurrency, BUSY_TIMEOUT_MS, intMode));
	}
	const { createClient } = await import('@libsql/client/web');
	return busyRetrying(createClient({ url, authToken, concurrency, intMode }));
}

/** Deletes a local database's files (with its WAL and shared-memory files); remote URLs are not touched. */
export async function removeFileDatabase(url: string): Promise<void> {
	if (!isFileUrl(url)) return;
	const { removeDatabaseFiles } = await import('./file-client');
	removeDatabaseFiles(url);
}

/**
 * Whether a local database's file is there; remote URLs answer true (whether a remote database is one of
 * ours is known only once it is read: see `existing` in migrate.ts).
 */
export async function fileDatabaseExists(url: string): Promise<boolean> {
	if (!isFileUrl(url)) return true;
	const { databaseFileExists } = await import('./file-client');
	return databaseFileExists(url);
}

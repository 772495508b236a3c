/** Local libSQL files: the native driver and the file system. Loaded only for `file:` URLs (see client.ts). */
import { createClient, type Client, type IntMode } from '@libsql/client';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The file path of a `file:` URL (`file:rel/x.db`, `file:/abs/x.db` or `file:///abs/x.db`). */
export function filePathOf(url: string): string {
	return url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
}

export async function openFileClient(
	url: string,
	concurrency: number,
	busyTimeoutMs: number,
	intMode: IntMode = 'number'
): Promise<Client> {
	mkdirSync(path.dirname(path.resolve(filePathOf(url))), { recursive: true });
	const client = createClient({ url, concurrency, timeout: busyTimeoutMs, intMode });
	// WAL: readers never wait for the one writer.
	await client.execute('PRAGMA journal_mode=WAL');
	return client;
}

/**
 * Writes a consistent snapshot of the database `source` is open on into the new file of `targetUrl`
 * (which must not exist): SQLite's `VACUUM INTO`, one read transaction. Tables and the full-text
 * indexes' pages are copied as they are; libSQL re-inserts the vectors into their DiskANN index.
 */
export async function snapshotInto(source: Client, targetUrl: string): Promise<void> {
	const target = path.resolve(filePathOf(targetUrl));
	mkdirSync(path.dirname(target), { recursive: true });
	await source.execute({ sql: 'VACUUM INTO ?', args: [target] });
}

export function removeDatabaseFiles(url: string): void {
	const file = filePathOf(url);
	for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

export function databaseFileExists(url: string): boolean {
	return existsSync(filePathOf(url));
}

import { createClient, type Client } from '@libsql/client';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How long a connection waits on a locked local database file before failing. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a libSQL client for a `file:`, `libsql:`, `http(s):` or `ws(s):` URL. For local files the
 * parent directory is created and WAL mode switched on, so readers never wait for the one writer.
 */
export async function openClient(url: string, authToken: string | undefined, concurrency: number): Promise<Client> {
	const isFile = url.startsWith('file:');
	if (isFile) {
		const filePath = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
		mkdirSync(path.dirname(path.resolve(filePath)), { recursive: true });
	}
	const client = createClient({ url, authToken, concurrency, timeout: BUSY_TIMEOUT_MS, intMode: 'number' });
	if (isFile) await client.execute('PRAGMA journal_mode=WAL');
	return client;
}

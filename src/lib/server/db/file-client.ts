/** Local libSQL files: the native driver and the file system. Loaded only for `file:` URLs (see client.ts). */
import { createClient, type Client, type IntMode } from '@libsql/client';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
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
 * Pages read per query: each query walks the whole page list (sqlite_dbpage filters only an exact page
 * number), so a database is read in at most PAGE_READS queries of at least MIN_PAGES_PER_READ pages:
 * memory stays a small share of the database, the walks a small multiple of its page count.
 */
const PAGE_READS = 64;
const MIN_PAGES_PER_READ = 1024;

/**
 * Writes an exact copy of the database `source` is open on, page for page as it stands in one read
 * transaction, into the new file of `targetUrl` (which must not exist): what SQLite's backup API does,
 * through its `sqlite_dbpage` table. Readers and writers of the source go on meanwhile (a WAL reader
 * holds a snapshot without blocking anyone). Everything comes along as it is, the full-text indexes and
 * libSQL's vector index (its DiskANN graph in `<index>_shadow`, its settings in
 * `libsql_vector_meta_shadow`) included: nothing is rebuilt. (`VACUUM INTO` is not used: libSQL rebuilds
 * the vector index there, one insert per vector, and writes its settings row twice, which fails
 * `PRAGMA integrity_check`; see docs/performance.md.)
 */
export async function copyDatabasePages(source: Client, targetUrl: string): Promise<{ pages: number; bytes: number }> {
	const target = path.resolve(filePathOf(targetUrl));
	mkdirSync(path.dirname(target), { recursive: true });
	const tx = await source.transaction('read');
	let out: FileHandle | undefined;
	/** The chunk being written while the next is read (reading runs on this thread, writing on libuv's). */
	let writing: Promise<void> = Promise.resolve();
	try {
		const [count] = (await tx.execute('PRAGMA page_count')).rows;
		const pages = Number(count?.[0]);
		if (!Number.isInteger(pages) || pages < 1) throw new Error(`copy: the database has no pages to copy (page_count ${pages})`);
		const file = await open(target, 'wx');
		out = file;
		const perRead = Math.max(MIN_PAGES_PER_READ, Math.ceil(pages / PAGE_READS));
		let bytes = 0;
		for (let first = 1; first <= pages; first += perRead) {
			const last = Math.min(pages, first + perRead - 1);
			const rs = await tx.execute({ sql: 'SELECT data FROM sqlite_dbpage WHERE pgno BETWEEN ? AND ? ORDER BY pgno', args: [first, last] });
			const chunk = rs.rows.map((r) => pageBytes(r.data));
			if (chunk.length !== last - first + 1) throw new Error(`copy: pages ${first}–${last} read as ${chunk.length}`);
			const size = chunk.reduce((n, b) => n + b.byteLength, 0);
			const at = bytes;
			bytes += size;
			await writing;
			writing = file.writev(chunk, at).then(({ bytesWritten }) => {
				if (bytesWritten !== size) throw new Error(`copy: ${bytesWritten} of ${size} bytes written`);
			});
		}
		await writing;
		await file.sync();
		out = undefined;
		await file.close();
		return { pages, bytes };
	} catch (err) {
		await writing.catch(() => undefined);
		if (out) {
			await out.close();
			rmSync(target, { force: true });
		}
		throw err;
	} finally {
		tx.close();
	}
}

function pageBytes(value: unknown): Uint8Array {
	if (value instanceof ArrayBuffer) return new Uint8Array(value);
	if (value instanceof Uint8Array) return value;
	throw new Error('copy: a page was not read as bytes');
}

export function removeDatabaseFiles(url: string): void {
	const file = filePathOf(url);
	for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

export function databaseFileExists(url: string): boolean {
	return existsSync(filePathOf(url));
}

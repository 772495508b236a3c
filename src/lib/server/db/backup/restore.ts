/**
 * `kantera restore`: puts a backup back. Every file is checked against the manifest's SHA-256 before
 * anything is touched. A local target gets the file copy itself (swapped in by rename); a remote target
 * (or a local one restored from an export) is emptied and loaded from the export in one transaction.
 * Run it with the server stopped: a running server keeps its own connections to the old databases.
 */
import { createClient } from '@libsql/client';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { isFileUrl, openClient } from '../client';
import { filePathOf } from '../file-client';
import type { SessionDbLocation } from '../placement';
import { dumpDatabase, loadDatabase } from './dump';
import { checkFile } from './files';
import { BackupError, type ManifestEntry } from './manifest';

/** Refuses a backup whose files are missing or differ from what the manifest recorded. */
export async function verifyEntries(dir: string, entries: ReadonlyArray<{ file: string; sha256: string; bytes: number }>): Promise<void> {
	for (const e of entries) {
		const bad = await checkFile(dir, e);
		if (bad) throw new BackupError(bad);
	}
}

export async function* exportLines(file: string): AsyncGenerator<string> {
	const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
	for await (const line of lines) yield line;
}

/** The export of a backed-up database file, read from a scratch copy (opening a file may change it). */
async function fileExport(file: string): Promise<string[]> {
	const scratch = `${file}.restoring-${process.pid}`;
	await copyFile(file, scratch);
	const client = createClient({ url: `file:${scratch}`, intMode: 'bigint' });
	const lines: string[] = [];
	try {
		await dumpDatabase(client, (line) => {
			lines.push(line);
		});
	} finally {
		client.close();
		for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(scratch + suffix, { force: true });
	}
	return lines;
}

/** Replaces the database at `target` with the backed-up one. */
export async function restoreDatabase(target: SessionDbLocation, dir: string, entry: ManifestEntry): Promise<void> {
	const source = path.join(dir, entry.file);
	if (isFileUrl(target.url) && entry.kind === 'file') {
		const file = filePathOf(target.url);
		await mkdir(path.dirname(path.resolve(file)), { recursive: true });
		const incoming = `${file}.restoring`;
		await copyFile(source, incoming);
		// The old WAL belongs to the old file: left beside the new one it would be replayed into it.
		for (const suffix of ['-wal', '-shm']) await rm(file + suffix, { force: true });
		await rename(incoming, file);
		return;
	}
	const lines = entry.kind === 'export' ? exportLines(source) : await fileExport(source);
	const client = await openClient(target.url, target.authToken, 1, 'bigint');
	try {
		await loadDatabase(client, lines);
	} finally {
		client.close();
	}
}

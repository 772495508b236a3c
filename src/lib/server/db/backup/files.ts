/** File helpers of the backup: hashing, hard links, listing backup folders. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_NAME, MANIFEST_FILE, readManifest, type Manifest } from './manifest';

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
	const hash = createHash('sha256');
	let bytes = 0;
	for await (const chunk of createReadStream(file)) {
		const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
		hash.update(buf);
		bytes += buf.length;
	}
	return { sha256: hash.digest('hex'), bytes };
}

/** Why a backed-up file cannot be trusted (missing, or not the bytes the manifest recorded), or undefined. */
export async function checkFile(dir: string, e: { file: string; sha256: string; bytes: number }): Promise<string | undefined> {
	const actual = await sha256File(path.join(dir, e.file)).catch(() => undefined);
	if (!actual) return `${e.file} is missing from the backup ${dir}`;
	if (actual.sha256 !== e.sha256 || actual.bytes !== e.bytes)
		return `${e.file} in ${dir} is damaged: its SHA-256 differs from the manifest`;
	return undefined;
}

/** Hard-links `from` to `to` (an unchanged database costs no space), copying where links are impossible. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
	try {
		await link(from, to);
	} catch {
		await copyFile(from, to);
	}
}

/** Size and modification time of a database file and its WAL: they change with every commit. */
export async function fingerprint(dbFile: string): Promise<string> {
	const parts: string[] = [];
	for (const f of [dbFile, `${dbFile}-wal`]) {
		const s = await stat(f).catch(() => undefined);
		parts.push(s ? `${s.size}:${s.mtimeMs}` : '-');
	}
	return parts.join('/');
}

/** Complete backups in `root` (folders with a manifest), newest first. */
export async function listBackups(root: string): Promise<Array<{ name: string; dir: string }>> {
	const names = await readdir(root).catch(() => []);
	const complete: Array<{ name: string; dir: string }> = [];
	for (const name of names
		.filter((n) => BACKUP_NAME.test(n))
		.sort()
		.reverse()) {
		const dir = path.join(root, name);
		if (await stat(path.join(dir, MANIFEST_FILE)).catch(() => undefined)) complete.push({ name, dir });
	}
	return complete;
}

export async function latestBackup(root: string): Promise<{ name: string; dir: string; manifest: Manifest } | undefined> {
	for (const b of await listBackups(root)) {
		const manifest = await readManifest(b.dir).catch(() => undefined);
		if (manifest) return { ...b, manifest };
	}
	return undefined;
}

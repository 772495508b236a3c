/**
 * `kantera backup`: a consistent copy of the control database, of every session database with its save
 * slots, and of their images and the preset covers (images.ts), while the server runs. Local files are
 * copied page for page (`copyDatabasePages`: one read transaction, a consistent snapshot that writers do
 * not wait for, every index as it is); remote databases (libSQL server, Turso) are exported as JSON lines
 * inside one read transaction. A database whose content is the same as in the previous backup is not
 * copied again: the new backup hard-links the previous copy, so every backup folder is complete on
 * its own. The folder appears under its final name only once its manifest is written.
 */
import { createClient } from '@libsql/client';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import type { Config } from '../../config';
import type { ControlDb } from '../control';
import { playSessions } from '../control-schema';
import { isFileUrl, openClient } from '../client';
import { copyDatabasePages, filePathOf } from '../file-client';
import type { SessionDbLocation, SessionPlacement } from '../placement';
import { coverImages } from '../image-references';
import { dumpDatabase } from './dump';
import { backupImages, type BackupImageSource } from './images';
import { fingerprint, latestBackup, linkOrCopy, sha256File } from './files';
import { BACKUP_FORMAT, MANIFEST_FILE, type Manifest, type ManifestEntry } from './manifest';

export interface BackupDeps {
	config: Pick<Config, 'controlDb'>;
	control: ControlDb;
	sessions: { placement: SessionPlacement };
	/** The image store (local folder or bucket); without it a backup holds the databases only. */
	images?: { store: BackupImageSource };
}

export interface BackupResult {
	name: string;
	dir: string;
	manifest: Manifest;
	/** Databases copied because they changed (or had no earlier copy). */
	copied: number;
	/** Databases linked from the previous backup. */
	unchanged: number;
	/** Images copied from the store, and those linked from the previous backup. */
	images: { copied: number; unchanged: number };
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

/** SHA-256 of a database's export, without writing it anywhere. */
async function contentHashOf(client: Parameters<typeof dumpDatabase>[0]): Promise<string> {
	const hash = createHash('sha256');
	await dumpDatabase(client, (line) => {
		hash.update(line);
		hash.update('\n');
	});
	return hash.digest('hex');
}

async function copyFileDatabase(url: string, target: string): Promise<{ contentHash: string }> {
	const source = await openClient(url, undefined, 1);
	try {
		await copyDatabasePages(source, `file:${target}`);
	} finally {
		source.close();
	}
	// Hashed through a copy of the copy: opening a database file may rewrite its header or add a WAL.
	const scratch = `${target}.hashing`;
	await copyFile(target, scratch);
	const client = createClient({ url: `file:${scratch}`, intMode: 'bigint' });
	try {
		return { contentHash: await contentHashOf(client) };
	} finally {
		client.close();
		for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(scratch + suffix, { force: true });
	}
}

async function exportRemoteDatabase(loc: SessionDbLocation, target: string): Promise<{ contentHash: string }> {
	const client = await openClient(loc.url, loc.authToken, 1, 'bigint');
	const hash = createHash('sha256');
	const out = createWriteStream(target);
	try {
		await dumpDatabase(client, async (line) => {
			hash.update(line);
			hash.update('\n');
			if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
		});
	} finally {
		client.close();
		await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
	}
	return { contentHash: hash.digest('hex') };
}

/**
 * The save slot databases a session's `saves` table names, read from the live database once its copy is
 * taken: a slot saved in between has its database backed up without its row (harmless: nothing points
 * at it after a restore), never a row without its database.
 */
async function saveDatabasesOf(loc: SessionDbLocation): Promise<string[]> {
	const client = await openClient(loc.url, loc.authToken, 1);
	try {
		const rs = await client.execute('SELECT database FROM saves ORDER BY database');
		return rs.rows.map((r) => r.database).filter((d): d is string => typeof d === 'string');
	} finally {
		client.close();
	}
}

/** Copies one database into `dir/<base>.db|.jsonl`, or links the previous backup's copy when nothing changed. */
async function backupOne(
	loc: SessionDbLocation,
	base: string,
	dir: string,
	previous: { dir: string; entry: ManifestEntry } | undefined
): Promise<ManifestEntry> {
	const kind: ManifestEntry['kind'] = isFileUrl(loc.url) ? 'file' : 'export';
	const file = `${base}.${kind === 'file' ? 'db' : 'jsonl'}`;
	const target = path.join(dir, file);
	const reuse = async (fp: string | undefined): Promise<ManifestEntry | undefined> => {
		if (!previous || previous.entry.kind !== kind) return undefined;
		await rm(target, { force: true });
		await linkOrCopy(path.join(previous.dir, previous.entry.file), target);
		return { ...previous.entry, file, ...(fp ? { fingerprint: fp } : {}), changed: false };
	};
	if (kind === 'file') {
		const fp = await fingerprint(filePathOf(loc.url));
		// Same files, same bytes on disk: nothing was committed since the previous backup.
		if (previous?.entry.fingerprint === fp) {
			const same = await reuse(fp);
			if (same) return same;
		}
		const { contentHash } = await copyFileDatabase(loc.url, target);
		if (previous?.entry.contentHash === contentHash) {
			const same = await reuse(fp);
			if (same) return same;
		}
		return { file, kind, ...(await sha256File(target)), contentHash, fingerprint: fp, changed: true };
	}
	const { contentHash } = await exportRemoteDatabase(loc, target);
	if (previous?.entry.contentHash === contentHash) {
		const same = await reuse(undefined);
		if (same) return same;
	}
	return { file, kind, ...(await sha256File(target)), contentHash, changed: true };
}

export async function runBackup(deps: BackupDeps, root: string, now = new Date()): Promise<BackupResult> {
	await mkdir(root, { recursive: true });
	const previous = await latestBackup(root);
	const name = `kantera-backup-${stamp(now)}`;
	const final = path.join(root, name);
	const partial = path.join(root, `.${name}.partial`);
	await rm(partial, { recursive: true, force: true });
	await mkdir(path.join(partial, 'sessions'), { recursive: true });
	await mkdir(path.join(partial, 'saves'), { recursive: true });
	try {
		const control = await backupOne(
			{ url: deps.config.controlDb.url, authToken: deps.config.controlDb.authToken },
			'control',
			partial,
			previous ? { dir: previous.dir, entry: previous.manifest.control } : undefined
		);
		const before = new Map(previous?.manifest.sessions.map((s) => [s.id, s]) ?? []);
		const savesBefore = new Map(previous?.manifest.saves.map((s) => [s.id, s]) ?? []);
		const ids = (await deps.control.db.select({ id: playSessions.id }).from(playSessions).orderBy(asc(playSessions.id))).map((r) => r.id);
		const sessions: Manifest['sessions'] = [];
		const saves: Manifest['saves'] = [];
		const failed: Manifest['failed'] = [];
		const fromPrevious = (entry: ManifestEntry | undefined) => (entry && previous ? { dir: previous.dir, entry } : undefined);
		const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
		for (const id of ids) {
			let loc: SessionDbLocation;
			try {
				loc = await deps.sessions.placement.locate(id);
				sessions.push({ id, ...(await backupOne(loc, `sessions/${id}`, partial, fromPrevious(before.get(id)))) });
			} catch (err) {
				failed.push({ id, error: why(err) });
				continue;
			}
			let saveIds: string[];
			try {
				saveIds = await saveDatabasesOf(loc);
			} catch (err) {
				failed.push({ id, error: `its save slots could not be listed: ${why(err)}` });
				continue;
			}
			for (const saveId of saveIds) {
				try {
					const loc = await deps.sessions.placement.locate(saveId);
					saves.push({
						id: saveId,
						session: id,
						...(await backupOne(loc, `saves/${saveId}`, partial, fromPrevious(savesBefore.get(saveId))))
					});
				} catch (err) {
					failed.push({ id: saveId, error: `save slot of session ${id}: ${why(err)}` });
				}
			}
		}
		// After the databases: every image their copies refer to was stored before the copy was taken.
		const folders = [...sessions.map((s) => s.id), ...(await coverImages(deps.control.client)).map((c) => c.slot)];
		const copiedImages = deps.images
			? await backupImages(deps.images.store, folders, partial, previous && { dir: previous.dir, images: previous.manifest.images })
			: { images: [], failed: [] };
		failed.push(...copiedImages.failed);
		const manifest: Manifest = {
			format: BACKUP_FORMAT,
			version: 1,
			createdAt: now.toISOString(),
			previous: previous?.name ?? null,
			control,
			sessions,
			saves,
			images: copiedImages.images,
			failed
		};
		await writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, '\t')}\n`);
		await rename(partial, final);
		const all = [control, ...sessions, ...saves];
		const images = manifest.images;
		return {
			name,
			dir: final,
			manifest,
			copied: all.filter((e) => e.changed).length,
			unchanged: all.filter((e) => !e.changed).length,
			images: { copied: images.filter((e) => e.changed).length, unchanged: images.filter((e) => !e.changed).length }
		};
	} catch (err) {
		await rm(partial, { recursive: true, force: true });
		throw err;
	}
}

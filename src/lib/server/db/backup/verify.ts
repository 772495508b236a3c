/**
 * `kantera backup --verify`: whether a backup would restore a working server, checked without restoring
 * it. Every file against the manifest's SHA-256; every database copy opened (a scratch copy of a file, or
 * an export loaded into a scratch database) and put through `PRAGMA integrity_check`; every image that
 * a backed-up session, save slot or preset cover refers to present in the backup. Every problem is listed,
 * not only the first.
 */
import { createClient, type Client } from '@libsql/client';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { coverImages, sessionImageKeys } from '../image-references';
import { sqlText } from '../text';
import { loadDatabase } from './dump';
import { checkFile } from './files';
import { imageFile, readManifest, type Manifest, type ManifestEntry } from './manifest';
import { exportLines } from './restore';

export interface VerifyReport {
	manifest: Manifest | undefined;
	databases: number;
	images: number;
	/** One line per problem; empty when the backup is sound. */
	problems: string[];
}

/** Opens a copy of a backed-up database in `scratch` (the backup itself is never opened: that may change it). */
async function openCopy(dir: string, entry: ManifestEntry, scratch: string): Promise<Client> {
	const file = path.join(scratch, `${entry.file.replaceAll('/', '-')}.db`);
	if (entry.kind === 'file') {
		await copyFile(path.join(dir, entry.file), file);
		return createClient({ url: `file:${file}`, intMode: 'bigint' });
	}
	const client = createClient({ url: `file:${file}`, intMode: 'bigint' });
	try {
		await loadDatabase(client, exportLines(path.join(dir, entry.file)));
	} catch (err) {
		client.close();
		throw err;
	}
	return client;
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function verifyBackup(dir: string): Promise<VerifyReport> {
	let manifest: Manifest;
	try {
		manifest = await readManifest(dir);
	} catch (err) {
		return { manifest: undefined, databases: 0, images: 0, problems: [why(err)] };
	}
	const problems: string[] = manifest.failed.map((f) => `${f.id} is not in this backup: ${f.error}`);
	/** Folder → the keys its databases refer to, with who refers to them. */
	const referenced = new Map<string, Map<string, string>>();
	const refer = (folder: string, key: string, by: string) => {
		const keys = referenced.get(folder) ?? new Map<string, string>();
		if (!keys.has(key)) keys.set(key, by);
		referenced.set(folder, keys);
	};
	const databases: Array<{ entry: ManifestEntry; refs: (c: Client) => Promise<void> }> = [
		{
			entry: manifest.control,
			refs: async (c) => {
				for (const cover of await coverImages(c)) if (cover.image) refer(cover.slot, cover.image, `the cover in slot ${cover.slot}`);
			}
		},
		...manifest.sessions.map((s) => ({
			entry: s,
			refs: async (c: Client) => {
				for (const key of await sessionImageKeys(c)) refer(s.id, key, `session ${s.id}`);
			}
		})),
		...manifest.saves.map((s) => ({
			entry: s,
			// A save slot's records show its session's images.
			refs: async (c: Client) => {
				for (const key of await sessionImageKeys(c)) refer(s.session, key, `save slot ${s.id} of session ${s.session}`);
			}
		}))
	];
	const scratch = await mkdtemp(path.join(tmpdir(), 'kantera-verify-'));
	try {
		for (const { entry, refs } of databases) {
			const bad = await checkFile(dir, entry);
			if (bad) {
				problems.push(bad);
				continue;
			}
			let client: Client | undefined;
			try {
				client = await openCopy(dir, entry, scratch);
				const lines = (await client.execute('PRAGMA integrity_check')).rows.map((r) => sqlText(r[0]));
				if (lines.join() !== 'ok') problems.push(`${entry.file} fails PRAGMA integrity_check: ${lines.slice(0, 5).join('; ')}`);
				await refs(client);
			} catch (err) {
				problems.push(`${entry.file} cannot be opened as a database: ${why(err)}`);
			} finally {
				client?.close();
			}
		}
	} finally {
		await rm(scratch, { recursive: true, force: true });
	}
	for (const e of manifest.images) {
		const bad = await checkFile(dir, { file: imageFile(e), sha256: e.sha256, bytes: e.bytes });
		if (bad) problems.push(bad);
	}
	const listed = new Set(manifest.images.map(imageFile));
	for (const [folder, keys] of referenced)
		for (const [key, by] of keys)
			if (!listed.has(imageFile({ folder, key }))) problems.push(`${imageFile({ folder, key })} is missing: ${by} refers to it`);
	return { manifest, databases: databases.length, images: manifest.images.length, problems };
}

/**
 * The images of a backup: every image in the folders of the sessions and preset covers backed up, copied
 * out of the image store (local files or a bucket) into `images/<folder>/<key>`, and put back into the
 * configured store on restore. Keys are content addressed, so an image the previous backup already holds
 * is linked from it without being read from the store again: a nightly backup of a bucket fetches only
 * the images drawn since.
 *
 * The store is given, not imported: the image store belongs to a capability above this layer.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { linkOrCopy } from './files';
import { imageFile, type ImageEntry } from './manifest';

/** What a backup needs of the image store (the app's `images.store` fits). */
export interface BackupImageSource {
	keys(folder: string): Promise<string[]>;
	get(folder: string, key: string): Promise<{ bytes: Uint8Array } | undefined>;
}

/** Images fetched at once: a bucket answers each GET with a round trip. */
const FETCH_CONCURRENCY = 4;

export interface ImagesCopied {
	images: ImageEntry[];
	failed: Array<{ id: string; error: string }>;
}

async function copyOne(
	store: BackupImageSource,
	dir: string,
	folder: string,
	key: string,
	previous: { dir: string; byFile: Map<string, ImageEntry> } | undefined
): Promise<ImageEntry | undefined> {
	const file = imageFile({ folder, key });
	const target = path.join(dir, file);
	const earlier = previous?.byFile.get(file);
	if (earlier && previous) {
		await linkOrCopy(path.join(previous.dir, file), target);
		return { ...earlier, changed: false };
	}
	const image = await store.get(folder, key);
	// Gone between the listing and now (its session was deleted meanwhile): nothing refers to it any more.
	if (!image) return undefined;
	await writeFile(target, image.bytes);
	return { folder, key, sha256: createHash('sha256').update(image.bytes).digest('hex'), bytes: image.bytes.length, changed: true };
}

/** Copies every image of `folders` into `dir/images/`, linking those the previous backup holds. */
export async function backupImages(
	store: BackupImageSource,
	folders: readonly string[],
	dir: string,
	previous: { dir: string; images: readonly ImageEntry[] } | undefined
): Promise<ImagesCopied> {
	const before = previous && { dir: previous.dir, byFile: new Map(previous.images.map((e) => [imageFile(e), e])) };
	const images: ImageEntry[] = [];
	const failed: ImagesCopied['failed'] = [];
	for (const folder of folders) {
		try {
			const keys = await store.keys(folder);
			if (keys.length === 0) continue;
			await mkdir(path.join(dir, 'images', folder), { recursive: true });
			for (let i = 0; i < keys.length; i += FETCH_CONCURRENCY) {
				const copied = await Promise.all(keys.slice(i, i + FETCH_CONCURRENCY).map((key) => copyOne(store, dir, folder, key, before)));
				for (const e of copied) if (e) images.push(e);
			}
		} catch (err) {
			failed.push({ id: folder, error: `its images could not be copied: ${err instanceof Error ? err.message : String(err)}` });
			await rm(path.join(dir, 'images', folder), { recursive: true, force: true });
			for (let i = images.length - 1; i >= 0; i--) if (images[i]?.folder === folder) images.splice(i, 1);
		}
	}
	return { images, failed };
}

/** Puts the backed-up images back through `put` (the configured store's, which writes each whole or not at all). */
export async function restoreImages(
	dir: string,
	images: readonly ImageEntry[],
	put: (folder: string, key: string, bytes: Uint8Array) => Promise<void>
): Promise<void> {
	for (const e of images) await put(e.folder, e.key, new Uint8Array(await readFile(path.join(dir, imageFile(e)))));
}

/** Images as local files: `<root>/<sessionId>/<key>`, the default store (see store.ts). */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ImageStoreError } from './errors';
import type { ImageContentType } from './provider';
import { checkKey, checkSession, contentTypeOfKey, isImageKey, type ImageStore, type StoredImage } from './store';

export class LocalImageStore implements ImageStore {
	private readonly root: string;

	/** `root` is the images folder itself, e.g. `<dataDir>/images`. */
	constructor(root: string) {
		this.root = path.resolve(root);
	}

	private dir(sessionId: string): string {
		return path.join(this.root, checkSession(sessionId));
	}

	async put(sessionId: string, key: string, bytes: Uint8Array, contentType: ImageContentType): Promise<void> {
		const dir = this.dir(sessionId);
		checkKey(key);
		if (contentTypeOfKey(key) !== contentType)
			throw new ImageStoreError(`image key "${key}" does not match its content type ${contentType}`);
		await mkdir(dir, { recursive: true });
		// Write then rename: a reader never sees half a file, and a crash leaves only a temp file.
		const tmp = path.join(dir, `.${key}.${randomBytes(6).toString('hex')}.tmp`);
		await writeFile(tmp, bytes);
		await rename(tmp, path.join(dir, key));
	}

	async get(sessionId: string, key: string): Promise<StoredImage | undefined> {
		const file = path.join(this.dir(sessionId), checkKey(key));
		try {
			return { bytes: new Uint8Array(await readFile(file)), contentType: contentTypeOfKey(key) };
		} catch (err) {
			if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return undefined;
			throw err;
		}
	}

	async deleteSession(sessionId: string): Promise<void> {
		await rm(this.dir(sessionId), { recursive: true, force: true });
	}

	async keys(sessionId: string): Promise<string[]> {
		// Temp files of a write under way start with a dot, so they are no key.
		const names = await readdir(this.dir(sessionId)).catch((err: unknown) => {
			if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return [];
			throw err;
		});
		return names.filter((n) => isImageKey(n)).sort();
	}
}

import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { newId } from '../../../src/lib/server/db';
import { ImageStoreError, imageKey, isImageKey } from '../../../src/lib/server/images';
import { LocalImageStore } from '../../../src/lib/server/images/local-store';
import { tempDir } from '../../helpers/env';

let dir: { dir: string; remove(): void } | undefined;
afterEach(() => {
	dir?.remove();
	dir = undefined;
});

function store(): { store: LocalImageStore; root: string } {
	dir = tempDir();
	const root = path.join(dir.dir, 'images');
	return { store: new LocalImageStore(root), root };
}

const bytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');

describe('local image store', () => {
	it('keeps images per session under the images folder, with the content type of the key', async () => {
		const { store: s, root } = store();
		const a = newId();
		const b = newId();
		const key = imageKey(bytes, 'image/svg+xml');
		expect(key).toMatch(/^[0-9a-f]{32}\.svg$/);
		await s.put(a, key, bytes, 'image/svg+xml');
		expect(await s.get(a, key)).toEqual({ bytes: new Uint8Array(bytes), contentType: 'image/svg+xml' });
		expect(await s.get(b, key)).toBeUndefined();
		expect(await s.get(a, 'ffff.png')).toBeUndefined();
		expect(readdirSync(path.join(root, a))).toEqual([key]);
		// What a backup copies: the session's keys, none for a session without images.
		expect(await s.keys(a)).toEqual([key]);
		expect(await s.keys(b)).toEqual([]);
	});

	it('refuses traversal, odd keys and malformed session ids before touching the file system', async () => {
		const { store: s, root } = store();
		const id = newId();
		// A file just outside the session folder that a traversal would reach.
		mkdirSync(root, { recursive: true });
		writeFileSync(path.join(root, 'secret.png'), 'x');
		const badKeys = [
			'../secret.png',
			'..%2Fsecret.png',
			'a/b.png',
			'a\\b.png',
			'.png',
			'..png',
			'x.svg.png',
			'X.png',
			'x.exe',
			'x.png\u0000',
			'x',
			'',
			`${'a'.repeat(200)}.png`
		];
		for (const key of badKeys) {
			expect(isImageKey(key)).toBe(false);
			await expect(s.get(id, key)).rejects.toBeInstanceOf(ImageStoreError);
			await expect(s.put(id, key, bytes, 'image/png')).rejects.toBeInstanceOf(ImageStoreError);
		}
		for (const session of ['..', '../x', 'ABCDEFGHIJKLMNOPQRST', '', 'images']) {
			await expect(s.get(session, 'abc.png')).rejects.toBeInstanceOf(ImageStoreError);
			await expect(s.deleteSession(session)).rejects.toBeInstanceOf(ImageStoreError);
		}
		expect(existsSync(path.join(root, 'secret.png'))).toBe(true);
		expect(existsSync(path.join(root, id))).toBe(false);
	});

	it('refuses a key whose extension does not match the content type', async () => {
		const { store: s } = store();
		await expect(s.put(newId(), 'abc.png', bytes, 'image/svg+xml')).rejects.toThrow(/does not match/);
	});

	it('deletes a session’s images and nothing else', async () => {
		const { store: s, root } = store();
		const a = newId();
		const b = newId();
		await s.put(a, 'one.svg', bytes, 'image/svg+xml');
		await s.put(b, 'two.svg', bytes, 'image/svg+xml');
		await s.deleteSession(a);
		await s.deleteSession(a);
		expect(existsSync(path.join(root, a))).toBe(false);
		expect(await s.get(b, 'two.svg')).toBeDefined();
	});
});

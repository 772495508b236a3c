/**
 * The S3-compatible image store against a real local S3 server (s3rver over HTTP: the S3 REST API,
 * path-style, with the access key and the Signature V4 header's form checked, though not the signature
 * itself), on its own and as the app's store: a generated image is written to the bucket, read back
 * through the app's image route, and deleted with its session.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { startLocalS3, S3_ACCESS_KEY_ID, S3_REGION, type LocalS3 } from '../../s3';
import { apiHarness, type ApiHarness } from '../api/client';
import { bodyOf, Session } from '../api/shapes';
import { parseConfig } from '../../../src/lib/server/config';
import { sessionSchema } from '../../../src/lib/server/db';
import { imageKey, ImageStoreError, S3ImageStore, type S3StoreOptions } from '../../../src/lib/server/images';
import { TINY_PNG_BASE64 } from '../../mock-llm';
import { orderSprite } from './helpers';

let s3: LocalS3;
beforeAll(async () => {
	s3 = await startLocalS3();
});
afterAll(async () => {
	await s3.close();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const SESSION = 'a'.repeat(20);
const OTHER = 'b'.repeat(20);
const png = new Uint8Array(Buffer.from(TINY_PNG_BASE64, 'base64'));
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');

function store(extra: Partial<S3StoreOptions> = {}): S3ImageStore {
	return new S3ImageStore({
		bucket: s3.bucket,
		endpoint: s3.endpoint,
		region: S3_REGION,
		accessKeyId: S3_ACCESS_KEY_ID,
		secretAccessKey: 'S3RVER',
		prefix: 'store-test/',
		publicUrl: undefined,
		...extra
	});
}

describe('the S3 image store', () => {
	it('stores, reads back and deletes a session’s images, leaving other sessions’ alone', async () => {
		const st = store();
		const a = imageKey(png, 'image/png');
		const b = imageKey(svg, 'image/svg+xml');
		await st.put(SESSION, a, png, 'image/png');
		await st.put(SESSION, b, svg, 'image/svg+xml');
		await st.put(OTHER, a, png, 'image/png');
		expect((await s3.list('store-test/')).sort()).toEqual(
			[`store-test/${OTHER}/${a}`, `store-test/${SESSION}/${a}`, `store-test/${SESSION}/${b}`].sort()
		);

		expect(await st.keys(SESSION)).toEqual([a, b].sort());
		expect(await st.keys(OTHER)).toEqual([a]);

		const back = await st.get(SESSION, a);
		expect(back?.contentType).toBe('image/png');
		expect(Buffer.from(back?.bytes ?? []).equals(Buffer.from(png))).toBe(true);
		expect(await st.get(SESSION, imageKey(new Uint8Array([9]), 'image/png'))).toBeUndefined();

		await st.deleteSession(SESSION);
		expect(await s3.list('store-test/')).toEqual([`store-test/${OTHER}/${a}`]);
		expect(await st.keys(SESSION)).toEqual([]);
		expect(await st.get(SESSION, a)).toBeUndefined();
		// Deleting again (nothing left) is fine.
		await st.deleteSession(SESSION);
		await st.deleteSession(OTHER);
		expect(await s3.list('store-test/')).toEqual([]);
	});

	it('refuses bad names before any request, and reports refused credentials without the secret', async () => {
		const st = store();
		await expect(st.put('../etc', 'x.png', png, 'image/png')).rejects.toBeInstanceOf(ImageStoreError);
		await expect(st.put(SESSION, '../x.png', png, 'image/png')).rejects.toBeInstanceOf(ImageStoreError);
		await expect(st.put(SESSION, imageKey(png, 'image/png'), png, 'image/webp')).rejects.toBeInstanceOf(ImageStoreError);
		await expect(st.get(SESSION, 'UPPER.png')).rejects.toBeInstanceOf(ImageStoreError);

		// s3rver checks the access key and the form of the Signature V4 header, not the signature itself
		// (its V4 check is unimplemented): an unknown key is what it can refuse.
		const secret = 'not-the-secret-5f3a9c';
		const wrong = store({ accessKeyId: 'NOBODY', secretAccessKey: secret });
		const err: unknown = await wrong.put(SESSION, imageKey(png, 'image/png'), png, 'image/png').catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ImageStoreError);
		expect(String(err)).toMatch(/403 \(InvalidAccessKeyId\)/);
		expect(String(err)).not.toContain(secret);
		expect(await s3.list('store-test/')).toEqual([]);
	});

	it('with a public URL, names where browsers fetch the image themselves', () => {
		const st = store({ publicUrl: 'https://images.example.test/' });
		const key = imageKey(png, 'image/png');
		expect(st.publicUrl(SESSION, key)).toBe(`https://images.example.test/store-test/${SESSION}/${key}`);
		expect(store().publicUrl(SESSION, key)).toBeUndefined();
	});
});

describe('settings', () => {
	it('KANTERA_IMAGE_STORE=s3 needs the bucket and both keys, and checks names', () => {
		expect(parseConfig({}).imageStore).toEqual({ kind: 'local' });
		expect(() => parseConfig({ KANTERA_IMAGE_STORE: 's3', KANTERA_S3_BUCKET: 'b1' })).toThrow(
			/KANTERA_S3_ACCESS_KEY_ID, KANTERA_S3_SECRET_ACCESS_KEY: required when KANTERA_IMAGE_STORE=s3/
		);
		expect(() => parseConfig({ ...s3.env(), KANTERA_S3_PREFIX: '../up' })).toThrow(/KANTERA_S3_PREFIX/);
		expect(() => parseConfig({ ...s3.env(), KANTERA_S3_BUCKET: 'Not_A_Bucket' })).toThrow(/KANTERA_S3_BUCKET/);
		expect(() => parseConfig({ KANTERA_IMAGE_STORE: 'disk' })).toThrow(/KANTERA_IMAGE_STORE: must be local or s3/);
		const cfg = parseConfig({ ...s3.env(), KANTERA_S3_ENDPOINT: undefined, KANTERA_S3_REGION: 'eu-west-3' }).imageStore;
		expect(cfg).toMatchObject({ kind: 's3', endpoint: 'https://s3.eu-west-3.amazonaws.com', prefix: '' });
	});
});

describe('the app with its images in a bucket', () => {
	async function playWithImage(h: ApiHarness): Promise<{ id: string; key: string }> {
		const api = h.as(h.alice);
		const id = (await bodyOf(await api.post('/api/v1/sessions', { title: 'Buckets' }), Session)).id;
		const orderId = await orderSprite(h.app, id, 'Ilse');
		h.app.images.kick(id);
		await h.app.images.idle();
		const [order] = await h.app.sessions.use(id, (s) =>
			s.db.select().from(sessionSchema.imageOrders).where(eq(sessionSchema.imageOrders.id, orderId))
		);
		expect(order).toMatchObject({ status: 'done' });
		return { id, key: order?.image ?? '' };
	}

	it('stores a generated image in the bucket, serves it through the image route, and deletes it with the session', async () => {
		const h = await apiHarness({ env: s3.env({ KANTERA_S3_PREFIX: 'app/' }) });
		cleanups.push(() => h.cleanup());
		const { id, key } = await playWithImage(h);
		expect(await s3.list(`app/${id}/`)).toEqual([`app/${id}/${key}`]);
		expect(existsSync(path.join(h.app.config.dataDir, 'images'))).toBe(false);

		const res = await h.as(h.alice).get(`/api/v1/sessions/${id}/images/${key}`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('image/svg+xml');
		expect(res.headers.get('cache-control')).toMatch(/private/);
		const served = new Uint8Array(await res.arrayBuffer());
		expect(imageKey(served, 'image/svg+xml')).toBe(key);
		// Another user's session is a 404, whatever the bucket holds.
		expect((await h.as(h.bob).get(`/api/v1/sessions/${id}/images/${key}`)).status).toBe(404);

		expect((await h.as(h.alice).delete(`/api/v1/sessions/${id}`)).status).toBe(204);
		expect(await s3.list(`app/${id}/`)).toEqual([]);
	});

	it('with a public URL, the image route answers the owner with a redirect to the bucket', async () => {
		const h = await apiHarness({ env: s3.env({ KANTERA_S3_PREFIX: 'public/', KANTERA_S3_PUBLIC_URL: 'https://img.example.test' }) });
		cleanups.push(() => h.cleanup());
		const { id, key } = await playWithImage(h);
		const res = await h.as(h.alice).get(`/api/v1/sessions/${id}/images/${key}`);
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`https://img.example.test/public/${id}/${key}`);
		expect((await h.as(h.bob).get(`/api/v1/sessions/${id}/images/${key}`)).status).toBe(404);
	});
});

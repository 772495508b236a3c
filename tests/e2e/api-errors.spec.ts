/**
 * The JSON API against the built server (npm start): every answer under /api/ is JSON — errors are
 * `{message, code}` with the documented status, whatever the client accepts — and one body limit,
 * KANTERA_MAX_BODY_BYTES, holds for declared and streamed (chunked) bodies alike.
 */
import { test, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import http from 'node:http';
import * as v from 'valibot';
import { uniqueName, PASSWORD } from './helpers';

const ErrorBody = v.object({ message: v.pipe(v.string(), v.minLength(10)), code: v.pipe(v.string(), v.regex(/^[A-Z_]+$/)) });
const Worlds = v.object({ worlds: v.array(v.object({ id: v.string() })) });
const Created = v.object({ id: v.string() });
const Documents = v.object({ documents: v.array(v.object({ id: v.number(), title: v.string() })) });
const Document = v.object({ id: v.number(), body: v.string() });
const SessionList = v.object({ sessions: v.array(v.unknown()) });

/** The server's default KANTERA_MAX_BODY_BYTES. */
const MAX_BODY_BYTES = 1_048_576;
/** What a browser sends when it navigates: HTML first. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function errorOf(res: APIResponse, status: number): Promise<v.InferOutput<typeof ErrorBody>> {
	expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
	expect(res.headers()['content-type']).toMatch(/^application\/json/);
	return v.parse(ErrorBody, await res.json());
}

/** Signs up through the form (as a browser on this origin would) and returns the session cookie. */
async function signUpApi(request: APIRequestContext, baseURL: string): Promise<string> {
	const res = await request.post('/signup', {
		form: { name: uniqueName('api'), password: PASSWORD },
		headers: { origin: new URL(baseURL).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(res.status()).toBe(303);
	const cookie = (await request.storageState()).cookies.find((c) => c.name === 'kantera_session');
	if (!cookie) throw new Error('no session cookie after sign-up');
	return `${cookie.name}=${cookie.value}`;
}

/** A document of a new session in an official world, which the player may edit. */
async function editableDocument(request: APIRequestContext): Promise<string> {
	const worlds = v.parse(Worlds, await (await request.get('/api/v1/worlds?language=ja')).json());
	const world = worlds.worlds[0]?.id;
	const session = v.parse(
		Created,
		await (await request.post('/api/v1/sessions', { data: { title: '長い文書', language: 'ja', world } })).json()
	);
	const docs = v.parse(Documents, await (await request.get(`/api/v1/sessions/${session.id}/documents`)).json());
	const doc = docs.documents[0];
	if (!doc) throw new Error('the world has no document');
	return `/api/v1/sessions/${session.id}/documents/${doc.id}`;
}

/** Sends `body` with Transfer-Encoding: chunked (no Content-Length), in 64 KiB pieces. */
function putChunked(baseURL: string, path: string, cookie: string, body: Buffer): Promise<{ status: number; type: string; text: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			new URL(path, baseURL),
			{ method: 'PUT', headers: { cookie, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (c: string) => (text += c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
			}
		);
		// The server may answer (413) and close before the whole body is sent.
		req.on('error', reject);
		const PIECE = 64 * 1024;
		for (let i = 0; i < body.length; i += PIECE) req.write(body.subarray(i, i + PIECE));
		req.end();
	});
}

test('unknown paths, wrong methods and other content types are answered in JSON with the documented status', async ({
	request,
	baseURL
}) => {
	const origin = new URL(baseURL ?? '').origin;
	await signUpApi(request, origin);
	for (const accept of ['application/json', BROWSER_ACCEPT, '*/*']) {
		expect((await errorOf(await request.get('/api/v1/nothing-here', { headers: { accept } }), 404)).code).toBe('NOT_FOUND');
		expect((await errorOf(await request.get('/api/elsewhere', { headers: { accept } }), 404)).code).toBe('NOT_FOUND');
		expect((await errorOf(await request.post('/api/v1/sessions/abc/turns/def/nope', { data: {}, headers: { accept } }), 404)).code).toBe(
			'NOT_FOUND'
		);

		const wrongMethod = await request.patch('/api/v1/status', { data: {}, headers: { accept } });
		expect((await errorOf(wrongMethod, 405)).code).toBe('METHOD_NOT_ALLOWED');
		expect(wrongMethod.headers()['allow']).toContain('GET');
		expect((await errorOf(await request.delete('/api/v1/worlds', { headers: { accept } }), 405)).code).toBe('METHOD_NOT_ALLOWED');
	}

	// text/plain and the form types: 415 from this origin, from a client that sends no Origin, and —
	// still refused — from another origin. Nothing is created.
	const origins: Record<string, string>[] = [{ origin }, {}, { origin: 'http://evil.example' }];
	for (const headers of origins) {
		for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
			const res = await request.post('/api/v1/sessions', { data: '{"title":"plain"}', headers: { ...headers, 'content-type': type } });
			expect((await errorOf(res, 415)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
		}
	}
	const list = v.parse(SessionList, await (await request.get('/api/v1/sessions')).json());
	expect(list.sessions).toEqual([]);
});

test('a 200,000-character Japanese document (600 KB) is accepted, declared or chunked; past KANTERA_MAX_BODY_BYTES is 413 JSON', async ({
	request,
	baseURL
}) => {
	const base = baseURL ?? '';
	const cookie = await signUpApi(request, base);
	const path = await editableDocument(request);
	const body = '霧'.repeat(199_999) + '\n';
	expect(body.length).toBe(200_000);
	const json = JSON.stringify({ body });
	expect(Buffer.byteLength(json)).toBeGreaterThan(512 * 1024);

	const declared = await request.put(path, { data: json, headers: { 'content-type': 'application/json' } });
	expect(declared.status(), await declared.text()).toBe(200);
	expect(v.parse(Document, await declared.json()).body).toBe(body);

	const chunked = await putChunked(base, path, cookie, Buffer.from(JSON.stringify({ body: '港'.repeat(200_000) })));
	expect(chunked.status, chunked.text).toBe(200);
	expect(v.parse(Document, JSON.parse(chunked.text)).body).toBe('港'.repeat(200_000));

	const tooLarge = JSON.stringify({ body: 'x'.repeat(MAX_BODY_BYTES) });
	for (const accept of ['application/json', BROWSER_ACCEPT]) {
		const res = await request.put(path, { data: tooLarge, headers: { 'content-type': 'application/json', accept } });
		expect((await errorOf(res, 413)).code).toBe('BODY_TOO_LARGE');
	}
	const streamed = await putChunked(base, path, cookie, Buffer.from(tooLarge));
	expect(streamed.status).toBe(413);
	expect(streamed.type).toMatch(/^application\/json/);
	expect(v.parse(ErrorBody, JSON.parse(streamed.text)).code).toBe('BODY_TOO_LARGE');
	// Nothing of the refused bodies was saved.
	expect(v.parse(Document, await (await request.get(path)).json()).body).toBe('港'.repeat(200_000));
});

test('a page of another origin on the same host cannot change anything with the player’s cookie', async ({ request, baseURL }) => {
	if (!baseURL) throw new Error('no baseURL');
	await signUpApi(request, baseURL);
	const here = new URL(baseURL);
	// Another port of the same host is the same site: the SameSite=Lax cookie goes along.
	const elsewhere = `${here.protocol}//${here.hostname}:${Number(here.port) + 1}`;
	const json = { 'content-type': 'application/json' };
	const refused = await request.post('/api/v1/sessions', { headers: { ...json, origin: elsewhere }, data: { title: 'Planted' } });
	expect((await errorOf(refused, 403)).code).toBe('CROSS_ORIGIN');
	const refusedBySite = await request.post('/api/v1/sessions', {
		headers: { ...json, 'sec-fetch-site': 'same-site' },
		data: { title: 'Planted' }
	});
	expect((await errorOf(refusedBySite, 403)).code).toBe('CROSS_ORIGIN');
	const list = v.parse(SessionList, await (await request.get('/api/v1/sessions')).json());
	expect(list.sessions).toHaveLength(0);
	// The site's own pages may.
	const created = await request.post('/api/v1/sessions', { headers: { ...json, origin: here.origin }, data: { title: 'Mine' } });
	expect(created.status()).toBe(201);
});

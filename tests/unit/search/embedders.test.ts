import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as v from 'valibot';
import {
	createEmbedder,
	EmbeddingConfigError,
	EmbeddingError,
	OfflineEmbedder,
	OFFLINE_EMBEDDER_ID,
	OpenAICompatibleEmbedder
} from '../../../src/lib/server/search';
import { parseConfig, OFFLINE_EMBEDDING_DIMENSIONS } from '../../../src/lib/server/config';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('OfflineEmbedder', () => {
	const e = new OfflineEmbedder(OFFLINE_EMBEDDING_DIMENSIONS);
	const sim = async (a: string, b: string) => {
		const [x, y] = await e.embed([a, b]);
		if (!x || !y) throw new Error('no vectors');
		return cosine(x, y);
	};

	it('is deterministic and L2-normalised', async () => {
		const [a, b] = await e.embed(['The old lighthouse', 'The old lighthouse']);
		expect(a).toEqual(b);
		expect(cosine(a ?? new Float32Array(), a ?? new Float32Array())).toBeCloseTo(1, 5);
		expect(a?.length).toBe(OFFLINE_EMBEDDING_DIMENSIONS);
	});

	it('brings inflections and shared names together, and keeps unrelated text apart', async () => {
		const related = await sim('who forged the swords', 'Marta forges a sword for the guard');
		const unrelated = await sim('who forged the swords', 'A recipe for lemon cake with fresh cream');
		expect(related).toBeGreaterThan(0.3);
		expect(related).toBeGreaterThan(unrelated * 3);
		expect(await sim('北門の衛兵', 'ブラムは北門を守る衛兵')).toBeGreaterThan(await sim('北門の衛兵', '湖のほとりに立つ魔術師の塔'));
	});

	it('cannot match synonyms or across languages (documented limit)', async () => {
		expect(await sim('north gate', '北門')).toBeLessThan(0.1);
		expect(await sim('physician', 'doctor')).toBeLessThan(0.1);
	});

	it('gives text without features a zero vector', async () => {
		const [z] = await e.embed(['the of and !!!']);
		expect(z?.every((x) => x === 0)).toBe(true);
	});
});

describe('createEmbedder', () => {
	it('defaults to the offline embedder at the configured dimension', () => {
		const offline = createEmbedder(parseConfig({}).embeddings);
		expect(offline).toBeInstanceOf(OfflineEmbedder);
		expect(offline.id).toBe(OFFLINE_EMBEDDER_ID);
		expect(offline.dimensions).toBe(OFFLINE_EMBEDDING_DIMENSIONS);
	});

	it('builds an OpenAI-compatible embedder, knowing OpenAI model sizes', () => {
		const e = createEmbedder(parseConfig({ KANTERA_EMBEDDINGS: 'openai', KANTERA_EMBEDDINGS_MODEL: 'text-embedding-3-small' }).embeddings);
		expect(e).toBeInstanceOf(OpenAICompatibleEmbedder);
		expect(e.dimensions).toBe(1536);
		const custom = createEmbedder(
			parseConfig({ KANTERA_EMBEDDINGS: 'openai', KANTERA_EMBEDDINGS_MODEL: 'bge-m3', KANTERA_EMBEDDINGS_DIMENSIONS: '1024' }).embeddings
		);
		expect(custom.dimensions).toBe(1024);
		expect(() =>
			createEmbedder(parseConfig({ KANTERA_EMBEDDINGS: 'openai', KANTERA_EMBEDDINGS_MODEL: 'nomic-embed-text' }).embeddings)
		).toThrow(EmbeddingConfigError);
	});
});

/** A local /v1/embeddings server speaking OpenAI's wire format, scripted per request. */
type Script = (body: RequestBody, req: IncomingMessage, res: ServerResponse) => void;
const RequestBody = v.object({
	model: v.string(),
	input: v.array(v.string()),
	encoding_format: v.optional(v.string()),
	dimensions: v.optional(v.number())
});
type RequestBody = v.InferOutput<typeof RequestBody>;

function embeddingsResponse(body: RequestBody, dims: number, order: 'asc' | 'desc' = 'asc') {
	const data = body.input.map((text, index) => ({
		object: 'embedding',
		index,
		embedding: Array.from({ length: dims }, (_, j) => (j === index % dims ? 1 : 0) + text.length / 1000)
	}));
	if (order === 'desc') data.reverse();
	return { object: 'list', data, model: body.model, usage: { prompt_tokens: 3, total_tokens: 3 } };
}

describe('OpenAICompatibleEmbedder against a local server', () => {
	let server: Server;
	let baseUrl: string;
	let scripts: Script[];
	let seen: { body: RequestBody; auth: string | undefined; path: string | undefined }[];

	beforeEach(async () => {
		scripts = [];
		seen = [];
		server = createServer((req, res) => {
			let raw = '';
			req.on('data', (c: Buffer) => (raw += c.toString()));
			req.on('end', () => {
				const body = v.parse(RequestBody, JSON.parse(raw));
				seen.push({ body, auth: req.headers.authorization, path: req.url });
				const script = scripts.shift();
				if (!script) {
					res.writeHead(500).end('no script');
					return;
				}
				script(body, req, res);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address();
		if (!address || typeof address === 'string') throw new Error('server has no TCP address');
		baseUrl = `http://127.0.0.1:${address.port}/v1`;
	});
	afterEach(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	const json =
		(status: number, payload: unknown, headers: Record<string, string> = {}): Script =>
		(_b, _r, res) => {
			res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
		};
	const ok =
		(dims: number, order: 'asc' | 'desc' = 'asc'): Script =>
		(body, _r, res) => {
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(embeddingsResponse(body, dims, order)));
		};

	it('sends model, input, dimensions and key, and returns vectors in input order', async () => {
		scripts.push(ok(4, 'desc'));
		const e = new OpenAICompatibleEmbedder({ baseUrl: `${baseUrl}/`, apiKey: 'sk-test', model: 'm', dimensions: 4 });
		const vectors = await e.embed(['a', 'bb', 'ccc']);
		expect(seen[0]).toEqual({
			body: { model: 'm', input: ['a', 'bb', 'ccc'], encoding_format: 'float', dimensions: 4 },
			auth: 'Bearer sk-test',
			path: '/v1/embeddings'
		});
		expect(vectors.map((x) => Array.from(x).indexOf(Math.max(...x)))).toEqual([0, 1, 2]);
		expect(vectors[1]?.[3]).toBeCloseTo(0.002, 6);
	});

	it('retries 429 and 5xx with backoff, then succeeds', async () => {
		scripts.push(json(429, { error: { message: 'slow down' } }, { 'retry-after': '0' }), json(503, { error: 'busy' }), ok(2));
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2, backoffMs: 1 });
		expect(await e.embed(['x'])).toHaveLength(1);
		expect(seen).toHaveLength(3);
	});

	it('gives up after the bounded retries with the status in the error', async () => {
		for (let i = 0; i < 5; i++) scripts.push(json(500, { error: 'down' }));
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2, backoffMs: 1, maxRetries: 2 });
		const err = await e.embed(['x']).catch((x: unknown) => x);
		expect(err).toBeInstanceOf(EmbeddingError);
		expect(err).toMatchObject({ status: 500 });
		expect(seen).toHaveLength(3);
	});

	it('does not retry a client error', async () => {
		scripts.push(json(400, { error: { message: 'bad model' } }), ok(2));
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2, backoffMs: 1 });
		await expect(e.embed(['x'])).rejects.toThrow(/400.*bad model/);
		expect(seen).toHaveLength(1);
	});

	it('rejects malformed responses and wrong dimensions', async () => {
		scripts.push(json(200, { data: [{ index: 0, embedding: 'nope' }] }), ok(3), json(200, { data: [] }));
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2, maxRetries: 0 });
		await expect(e.embed(['x'])).rejects.toThrow(EmbeddingError);
		await expect(e.embed(['x'])).rejects.toThrow(/3 dimensions, expected 2/);
		await expect(e.embed(['x'])).rejects.toThrow(/no vector for input 0/);
	});

	it('times out a hanging server', async () => {
		scripts.push(() => undefined);
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2, timeoutMs: 50, maxRetries: 0 });
		await expect(e.embed(['x'])).rejects.toThrow(/timed out/);
	});

	it('stops at once when the caller aborts', async () => {
		scripts.push(() => undefined);
		const e = new OpenAICompatibleEmbedder({ baseUrl, model: 'm', dimensions: 2 });
		const controller = new AbortController();
		const pending = e.embed(['x'], controller.signal);
		setTimeout(() => controller.abort(new Error('turn cancelled')), 20);
		await expect(pending).rejects.toThrow('turn cancelled');
		expect(seen.length).toBeLessThanOrEqual(1);
	});
});

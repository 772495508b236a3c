import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
	createEmbedder,
	EmbeddingConfigError,
	EmbeddingError,
	OfflineEmbedder,
	OFFLINE_EMBEDDER_ID,
	OpenAICompatibleEmbedder
} from '../../../src/lib/server/search';
import { parseConfig, OFFLINE_EMBEDDING_DIMENSIONS } from '../../../src/lib/server/config';
import { startMockLlm, type MockLlm } from '../../mock-llm';

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

describe('OpenAICompatibleEmbedder against the mock vendor (the real openai SDK over HTTP)', () => {
	let mock: MockLlm;
	beforeEach(async () => {
		mock = await startMockLlm();
	});
	afterEach(async () => {
		await mock.close();
	});

	const fast = { baseDelayMs: 1, maxDelayMs: 50 };
	const bodies = () => mock.embeddings.requests.map((r) => r.body);

	it('sends model, input, dimensions and key, and returns vectors in input order', async () => {
		mock.embeddings.script([{ reverse: true }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: `${mock.openaiBaseUrl}/`, apiKey: 'sk-test', model: 'm', dimensions: 4 });
		const vectors = await e.embed(['a', 'bb', 'ccc']);
		const [sent] = mock.embeddings.requests;
		expect(sent?.path).toBe('/v1/embeddings');
		expect(sent?.headers['authorization']).toBe('Bearer sk-test');
		expect(sent?.body).toEqual({ model: 'm', input: ['a', 'bb', 'ccc'], encoding_format: 'float', dimensions: 4 });
		expect(vectors.map((x) => Array.from(x).indexOf(Math.max(...x)))).toEqual([0, 1, 2]);
		expect(vectors[1]?.[3]).toBeCloseTo(0.002, 6);
	});

	it('sends no key to a server that needs none, and no dimensions the model has natively', async () => {
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'text-embedding-3-small' });
		expect(await e.embed(['x'])).toEqual([expect.any(Float32Array)]);
		expect(mock.embeddings.requests[0]?.headers['authorization']).toBeUndefined();
		expect(bodies()).toEqual([{ model: 'text-embedding-3-small', input: ['x'], encoding_format: 'float' }]);
	});

	it('retries 429 and 5xx with backoff, then succeeds', async () => {
		mock.embeddings.script([
			{ fault: { kind: 'status', status: 429, message: 'slow down', retryAfterSeconds: 0 } },
			{ fault: { kind: 'status', status: 503 } }
		]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2, retry: fast });
		expect(await e.embed(['x'])).toHaveLength(1);
		expect(mock.embeddings.requests).toHaveLength(3);
	});

	it('gives up after the bounded retries with the status in the error', async () => {
		mock.embeddings.script([{ fault: { kind: 'status', status: 500 }, times: 5 }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2, retry: { ...fast, maxRetries: 2 } });
		const err = await e.embed(['x']).catch((x: unknown) => x);
		expect(err).toBeInstanceOf(EmbeddingError);
		expect(err).toMatchObject({ status: 500, retryable: true });
		expect(mock.embeddings.requests).toHaveLength(3);
	});

	it("leaves retrying to our policy alone: the SDK's own retries are off", async () => {
		mock.embeddings.script([{ fault: { kind: 'status', status: 503 }, times: 5 }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2, retry: { maxRetries: 0 } });
		await expect(e.embed(['x'])).rejects.toMatchObject({ status: 503 });
		expect(mock.embeddings.requests).toHaveLength(1);
	});

	it('does not retry a client error', async () => {
		mock.embeddings.script([{ fault: { kind: 'status', status: 400, message: 'bad model' } }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2, retry: fast });
		await expect(e.embed(['x'])).rejects.toThrow(/400.*bad model/);
		expect(mock.embeddings.requests).toHaveLength(1);
	});

	it('gives up at once when Retry-After, in seconds or as an HTTP date, asks for longer than the cap', async () => {
		const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
		mock.embeddings.script([
			{ fault: { kind: 'status', status: 429, retryAfterSeconds: 60 } },
			{ fault: { kind: 'status', status: 503, retryAfter: inAnHour } }
		]);
		const e = new OpenAICompatibleEmbedder({
			baseUrl: mock.openaiBaseUrl,
			model: 'm',
			dimensions: 2,
			retry: { ...fast, maxRetryAfterMs: 20_000 }
		});
		await expect(e.embed(['x'])).rejects.toMatchObject({ status: 429, retryAfterMs: 60_000 });
		const dated = await e.embed(['x']).catch((x: unknown) => x);
		expect(dated).toMatchObject({ status: 503 });
		expect(dated instanceof EmbeddingError && dated.retryAfterMs).toBeGreaterThan(3_500_000);
		expect(mock.embeddings.requests).toHaveLength(2);
	});

	it('rejects malformed responses and wrong dimensions', async () => {
		mock.embeddings.script([{ body: { data: [{ index: 0, embedding: 'nope' }] } }, { dimensions: 3 }, { body: { data: [] } }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2, retry: { maxRetries: 0 } });
		await expect(e.embed(['x'])).rejects.toThrow(EmbeddingError);
		await expect(e.embed(['x'])).rejects.toThrow(/3 dimensions, expected 2/);
		await expect(e.embed(['x'])).rejects.toThrow(/no vector for input 0/);
	});

	it('times out a hanging server', async () => {
		mock.embeddings.script([{ fault: { kind: 'hang' } }]);
		const e = new OpenAICompatibleEmbedder({
			baseUrl: mock.openaiBaseUrl,
			model: 'm',
			dimensions: 2,
			timeoutMs: 50,
			retry: { maxRetries: 0 }
		});
		await expect(e.embed(['x'])).rejects.toThrow(/timed out/);
	});

	it('stops at once when the caller aborts', async () => {
		mock.embeddings.script([{ fault: { kind: 'hang' } }]);
		const e = new OpenAICompatibleEmbedder({ baseUrl: mock.openaiBaseUrl, model: 'm', dimensions: 2 });
		const controller = new AbortController();
		const pending = e.embed(['x'], controller.signal);
		setTimeout(() => controller.abort(new Error('turn cancelled')), 20);
		await expect(pending).rejects.toThrow('turn cancelled');
		expect(mock.embeddings.requests.length).toBeLessThanOrEqual(1);
	});
});

/**
 * Embeddings from any OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama, TEI, vLLM…).
 * Plain fetch, not an SDK: SDKs live in $lib/server/llm only, and this endpoint is one small request.
 */
import * as v from 'valibot';
import type { Embedder } from './embedder';
import { EmbeddingConfigError, EmbeddingError } from '../errors';

/** One attempt may take this long before it is abandoned and (maybe) retried. */
export const EMBEDDING_TIMEOUT_MS = 30_000;
/** Retries after the first attempt, for 429, 5xx and network failures only. */
export const EMBEDDING_MAX_RETRIES = 3;
/** First backoff; doubled per retry, with jitter. */
export const EMBEDDING_BACKOFF_MS = 500;
/** A server's Retry-After is honoured up to this long. */
const MAX_RETRY_AFTER_MS = 20_000;
/** Error bodies are quoted in messages up to this length. */
const ERROR_DETAIL_CHARS = 300;

/** Native sizes of OpenAI's models, used when no dimension is configured. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
	'text-embedding-3-small': 1536,
	'text-embedding-3-large': 3072,
	'text-embedding-ada-002': 1536
};

const ResponseSchema = v.object({
	data: v.array(
		v.object({
			index: v.pipe(v.number(), v.integer(), v.minValue(0)),
			embedding: v.array(v.number())
		})
	)
});

export interface OpenAICompatibleOptions {
	/** Up to and including `/v1`, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
	baseUrl: string;
	apiKey?: string;
	model: string;
	/** Requested vector length. Sent to the server only when set (older models reject the field). */
	dimensions?: number;
	similarityFloor?: number;
	/** Say of the meaning list against word BM25 in English-style queries (default: equal). */
	fusionWeight?: number;
	timeoutMs?: number;
	maxRetries?: number;
	backoffMs?: number;
	fetch?: typeof fetch;
}

/** Cosine similarities of unrelated texts under neural models sit around 0.1–0.25. */
export const NEURAL_SIMILARITY_FLOOR = 0.3;

export class OpenAICompatibleEmbedder implements Embedder {
	readonly id: string;
	readonly dimensions: number;
	readonly similarityFloor: number;
	readonly fusionWeight?: number;
	private readonly url: string;
	private readonly sendDimensions: boolean;

	constructor(private readonly options: OpenAICompatibleOptions) {
		const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[options.model];
		if (dimensions === undefined)
			throw new EmbeddingConfigError(
				`the vector size of embedding model "${options.model}" is not known: set KANTERA_EMBEDDINGS_DIMENSIONS`
			);
		this.id = options.model;
		this.dimensions = dimensions;
		this.sendDimensions = options.dimensions !== undefined;
		this.similarityFloor = options.similarityFloor ?? NEURAL_SIMILARITY_FLOOR;
		if (options.fusionWeight !== undefined) this.fusionWeight = options.fusionWeight;
		this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
	}

	async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
		if (texts.length === 0) return [];
		const body = JSON.stringify({
			model: this.options.model,
			input: texts,
			encoding_format: 'float',
			...(this.sendDimensions ? { dimensions: this.dimensions } : {})
		});
		const maxRetries = this.options.maxRetries ?? EMBEDDING_MAX_RETRIES;
		for (let attempt = 0; ; attempt++) {
			const outcome = await this.attempt(body, signal);
			if (outcome.ok) return this.parse(outcome.json, texts.length);
			if (!outcome.retryable || attempt >= maxRetries) throw outcome.error;
			const backoff = (this.options.backoffMs ?? EMBEDDING_BACKOFF_MS) * 2 ** attempt * (0.75 + Math.random() / 2);
			await sleep(Math.min(outcome.retryAfterMs ?? backoff, MAX_RETRY_AFTER_MS), signal);
		}
	}

	private async attempt(
		body: string,
		signal: AbortSignal | undefined
	): Promise<{ ok: true; json: unknown } | { ok: false; retryable: boolean; error: EmbeddingError; retryAfterMs?: number }> {
		const timeout = AbortSignal.timeout(this.options.timeoutMs ?? EMBEDDING_TIMEOUT_MS);
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
		let response: Response;
		try {
			const doFetch = this.options.fetch ?? fetch;
			response = await doFetch(this.url, { method: 'POST', headers, body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
		} catch (err) {
			// The caller's own abort is final; a timeout or a dropped connection is worth another try.
			if (signal?.aborted) throw signal.reason;
			const reason = timeout.aborted
				? `timed out after ${this.options.timeoutMs ?? EMBEDDING_TIMEOUT_MS} ms`
				: err instanceof Error
					? err.message
					: String(err);
			return { ok: false, retryable: true, error: new EmbeddingError(`embedding request to ${this.url} failed: ${reason}`) };
		}
		if (!response.ok) {
			const detail = (await response.text().catch(() => '')).slice(0, ERROR_DETAIL_CHARS);
			const retryable = response.status === 429 || response.status >= 500;
			return {
				ok: false,
				retryable,
				retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
				error: new EmbeddingError(
					`embedding request to ${this.url} answered ${response.status}${detail ? `: ${detail}` : ''}`,
					response.status
				)
			};
		}
		try {
			return { ok: true, json: await response.json() };
		} catch {
			return { ok: false, retryable: false, error: new EmbeddingError(`embedding response from ${this.url} is not JSON`) };
		}
	}

	private parse(json: unknown, count: number): Float32Array[] {
		const result = v.safeParse(ResponseSchema, json);
		if (!result.success)
			throw new EmbeddingError(`embedding response from ${this.url} has an unexpected shape: ${result.issues[0].message}`);
		const vectors = new Array<Float32Array | undefined>(count);
		for (const item of result.output.data) {
			if (item.index >= count) throw new EmbeddingError(`embedding response index ${item.index} is out of range (${count} inputs)`);
			if (item.embedding.length !== this.dimensions)
				throw new EmbeddingError(`model "${this.id}" returned ${item.embedding.length} dimensions, expected ${this.dimensions}`);
			vectors[item.index] = Float32Array.from(item.embedding);
		}
		// Array.from, not map: map skips the holes this check is looking for.
		return Array.from(vectors, (vector, i) => {
			if (!vector) throw new EmbeddingError(`embedding response has no vector for input ${i}`);
			return vector;
		});
	}
}

function retryAfterMs(header: string | null): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason);
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}

/**
 * Embeddings from any OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama, TEI, vLLM…), through the
 * `openai` SDK (its client comes from llm). The SDK does not retry; the server's one retry policy does.
 */
import * as v from 'valibot';
import { callOpenAiEndpoint, createOpenAiEndpointClient, type OpenAiEndpointClient } from '../../llm';
import { withRetry, type RetryPolicy } from '../../retry';
import type { Embedder } from './embedder';
import { EmbeddingConfigError, EmbeddingError } from '../errors';

/** One attempt may take this long before it is abandoned and (maybe) retried. */
const EMBEDDING_TIMEOUT_MS = 30_000;
/** Retries after the first attempt, for 429, 5xx and network failures only. */
const EMBEDDING_MAX_RETRIES = 3;
/**
 * First backoff 500 ms, doubled per retry, with jitter; a server's Retry-After is honoured up to 20 s (longer, and
 * the batch waits for the next turn instead: embedding never blocks play).
 */
const EMBEDDING_RETRY: Readonly<RetryPolicy> = Object.freeze({
	maxRetries: EMBEDDING_MAX_RETRIES,
	baseDelayMs: 500,
	maxDelayMs: 20_000
});

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
	retry?: Partial<RetryPolicy>;
}

/** Cosine similarities of unrelated texts under neural models sit around 0.1–0.25. */
const NEURAL_SIMILARITY_FLOOR = 0.3;

export class OpenAICompatibleEmbedder implements Embedder {
	readonly id: string;
	readonly dimensions: number;
	readonly similarityFloor: number;
	readonly fusionWeight?: number;
	/** Named in error messages (the SDK appends `/embeddings` to the base URL). */
	private readonly url: string;
	private readonly sendDimensions: boolean;
	private readonly client: OpenAiEndpointClient;
	private readonly retry: RetryPolicy;

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
		const baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.url = `${baseUrl}/embeddings`;
		this.client = createOpenAiEndpointClient({ baseUrl, apiKey: options.apiKey || undefined });
		this.retry = { ...EMBEDDING_RETRY, ...options.retry };
	}

	async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
		if (texts.length === 0) return [];
		const json = await withRetry(() => this.attempt(texts, signal), { policy: this.retry, signal });
		return this.parse(json, texts.length);
	}

	private async attempt(texts: string[], signal: AbortSignal | undefined): Promise<unknown> {
		const timeoutMs = this.options.timeoutMs ?? EMBEDDING_TIMEOUT_MS;
		const body = {
			model: this.options.model,
			input: texts,
			encoding_format: 'float' as const,
			...(this.sendDimensions ? { dimensions: this.dimensions } : {})
		};
		const result = await callOpenAiEndpoint((request) => this.client.embeddings.create(body, request), signal, timeoutMs);
		if (result.ok) return result.value;
		const { detail, status, retryable, retryAfterMs } = result.failure;
		throw new EmbeddingError(`embedding request to ${this.url} ${detail}`, status, { retryable, retryAfterMs });
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

/**
 * OpenAI's embeddings (`POST /v1/embeddings`) and images (`POST /v1/images/generations`) endpoints in the mock, in
 * their real wire formats, so the real `openai` SDK runs against them. Each endpoint has its own script queue and
 * request log (a turn's chat requests and the images it orders don't take each other's replies); unscripted
 * requests get a well-formed answer (vectors of the requested size, a small PNG).
 */
import * as v from 'valibot';
import { issuesText } from './request-shapes';
import { openAiErrorBody } from './wire';

/** A valid 1×1 transparent PNG. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Vector length when neither the script nor the request says, for a model whose native size the mock doesn't know. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 8;
/** OpenAI's models answer in their native size when the request names none. */
const NATIVE_DIMENSIONS: Readonly<Record<string, number>> = {
	'text-embedding-3-small': 1536,
	'text-embedding-3-large': 3072,
	'text-embedding-ada-002': 1536
};

export type EndpointName = 'embeddings' | 'images';

/** Where each endpoint is served (under the OpenAI base URL). */
export const ENDPOINT_ROUTES: Readonly<Record<string, EndpointName>> = {
	'/v1/embeddings': 'embeddings',
	'/v1/images/generations': 'images'
};

/** Faults the non-streaming endpoints know. */
export type EndpointFault =
	/** This HTTP status with OpenAI's error body; Retry-After as seconds, or any header text (an HTTP date). */
	| { kind: 'status'; status: number; message?: string; retryAfterSeconds?: number; retryAfter?: string }
	/** Read the request and never answer. */
	| { kind: 'hang' };

export interface ScriptedEmbeddings {
	fault?: EndpointFault;
	/** Vector length (default: the request's `dimensions`, else the model's native size); a wrong one on purpose tests the client. */
	dimensions?: number;
	/** Answer the inputs in reverse order (the index field still says which is which). */
	reverse?: boolean;
	/** Answer 200 with exactly this JSON instead (malformed responses). */
	body?: unknown;
	/** Serve this reply for this many requests (default 1). */
	times?: number;
}

export interface ScriptedImage {
	fault?: EndpointFault;
	/** `png` (default): a base64 PNG; `url-only`: a URL and no bytes; `not-an-image`: base64 of HTML. */
	image?: 'png' | 'url-only' | 'not-an-image';
	body?: unknown;
	times?: number;
}

export interface EndpointRequest {
	seq: number;
	path: string;
	headers: Record<string, string>;
	/** The JSON body exactly as received. */
	body: unknown;
}

const EmbeddingsBodySchema = v.strictObject({
	model: v.pipe(v.string(), v.minLength(1)),
	input: v.union([
		v.pipe(v.string(), v.minLength(1)),
		v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(2048)),
		v.pipe(v.array(v.number()), v.minLength(1)),
		v.pipe(v.array(v.array(v.number())), v.minLength(1))
	]),
	encoding_format: v.optional(v.picklist(['float', 'base64'])),
	dimensions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	user: v.optional(v.string())
});
export type EmbeddingsBody = v.InferOutput<typeof EmbeddingsBodySchema>;

const ImagesBodySchema = v.strictObject({
	prompt: v.pipe(v.string(), v.minLength(1)),
	model: v.optional(v.string()),
	n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10))),
	size: v.optional(v.string()),
	quality: v.optional(v.string()),
	style: v.optional(v.string()),
	response_format: v.optional(v.picklist(['url', 'b64_json'])),
	background: v.optional(v.picklist(['transparent', 'opaque', 'auto'])),
	output_format: v.optional(v.picklist(['png', 'jpeg', 'webp'])),
	output_compression: v.optional(v.number()),
	moderation: v.optional(v.picklist(['low', 'auto'])),
	user: v.optional(v.string())
});

export type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

/** What the real API says to a body it refuses, or undefined when it would take it. */
export function endpointBodyProblem(endpoint: EndpointName, body: unknown): string | undefined {
	if (endpoint === 'embeddings') {
		const parsed = v.safeParse(EmbeddingsBodySchema, body);
		return parsed.success ? undefined : issuesText(parsed.issues);
	}
	const parsed = v.safeParse(ImagesBodySchema, body);
	if (!parsed.success) return issuesText(parsed.issues);
	const images = parsed.output;
	// gpt-image models always answer in base64 and refuse the field; transparency needs a format with alpha.
	if (images.model?.startsWith('gpt-image') && images.response_format !== undefined) return "Unknown parameter: 'response_format'.";
	if (images.background === 'transparent' && images.output_format === 'jpeg')
		return 'Transparent background requires output_format png or webp.';
	return undefined;
}

export function answerEndpoint(endpoint: EndpointName, reply: ScriptedEmbeddings | ScriptedImage | undefined, body: unknown): Answer {
	const fault = reply?.fault;
	if (fault?.kind === 'hang') return 'hang';
	if (fault?.kind === 'status') {
		const headers: Record<string, string> = {};
		if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
		if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
		return {
			status: fault.status,
			body: openAiErrorBody(fault.status, fault.message ?? `mock ${endpoint}: scripted ${fault.status}`),
			headers
		};
	}
	if (reply?.body !== undefined) return { status: 200, body: reply.body };
	return endpoint === 'embeddings' ? { status: 200, body: embeddingsJson(body, reply) } : { status: 200, body: imagesJson(reply) };
}

function embeddingsJson(raw: unknown, reply: ScriptedEmbeddings | undefined): Record<string, unknown> {
	const parsed = v.parse(EmbeddingsBodySchema, raw);
	const inputs =
		typeof parsed.input === 'string'
			? [parsed.input]
			: parsed.input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
	const dims = reply?.dimensions ?? parsed.dimensions ?? NATIVE_DIMENSIONS[parsed.model] ?? DEFAULT_EMBEDDING_DIMENSIONS;
	const data = inputs.map((text, index) => {
		const vector = fakeVector(text, index, dims);
		return { object: 'embedding', index, embedding: parsed.encoding_format === 'base64' ? toBase64(vector) : Array.from(vector) };
	});
	if (reply?.reverse) data.reverse();
	const tokens = inputs.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0);
	return { object: 'list', data, model: parsed.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** One-hot at the input's position, lifted by the text's length: tests can tell the vectors apart and in order. */
function fakeVector(text: string, index: number, dims: number): Float32Array {
	return Float32Array.from({ length: dims }, (_, j) => (j === index % dims ? 1 : 0) + text.length / 1000);
}

/** The API's base64 form: the float32 values, little-endian. */
function toBase64(vector: Float32Array): string {
	const bytes = Buffer.alloc(vector.length * 4);
	vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
	return bytes.toString('base64');
}

function imagesJson(reply: ScriptedImage | undefined): Record<string, unknown> {
	const created = Math.floor(Date.now() / 1000);
	switch (reply?.image ?? 'png') {
		case 'url-only':
			return { created, data: [{ url: 'http://example.invalid/x.png' }] };
		case 'not-an-image':
			return { created, data: [{ b64_json: Buffer.from('<html>nope</html>').toString('base64') }] };
		case 'png':
			return {
				created,
				data: [{ b64_json: TINY_PNG_BASE64 }],
				usage: { total_tokens: 10, input_tokens: 5, output_tokens: 5, input_tokens_details: { text_tokens: 5, image_tokens: 0 } }
			};
	}
}

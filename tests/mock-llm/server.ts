/**
 * A scripted mock LLM server on plain node:http that speaks the real OpenAI Chat Completions and Anthropic
 * Messages wire formats (and OpenAI's embeddings and images endpoints, see endpoints.ts), so the real SDKs run
 * against it. Tests script replies (or a handler), inject faults,
 * and read back every request it received.
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
	answerEndpoint,
	endpointBodyProblem,
	ENDPOINT_ROUTES,
	type EndpointName,
	type EndpointRequest,
	type ScriptedEmbeddings,
	type ScriptedImage
} from './endpoints';
import { checkAnthropicBody, checkOpenAiBody, systemTextOf } from './request-shapes';
import { CHARS_PER_TOKEN, PromptCache } from './prompt-cache';
import type { MockHandler, RecordedRequest, ScriptedReply, WireApi } from './types';
import { answerLocalServer, type LocalRequest, type LocalServer } from './local-servers';
import {
	anthropicEndlessFrame,
	anthropicEndlessOpening,
	anthropicErrorBody,
	anthropicJson,
	anthropicStreamFrames,
	openAiEndlessFrame,
	openAiEndlessOpening,
	openAiErrorBody,
	openAiJson,
	openAiStreamFrames,
	type WireReply
} from './wire';

/** Replaced by the time a stream frame is written, so a test can measure delivery latency. */
export const NOW_MARKER = '{{now}}';
export interface MockLlmOptions {
	/** Replies when the script queue is empty. Without one, an unscripted request gets a 400 that says so. */
	handler?: MockHandler;
	/** When set, requests must carry this key (see apiKeyOf) or get a 401. */
	apiKey?: string;
	/** Reject bodies the real APIs would reject (default true). */
	strict?: boolean;
	/** Characters per text delta when a reply's text is one string (default 6). */
	textChunkChars?: number;
	port?: number;
	host?: string;
	/** Report cached input as the vendors' prompt caches would (default true); scripted usage always wins. */
	promptCache?: boolean;
}

export interface MockLlm {
	/** The server root, e.g. http://127.0.0.1:40123 */
	url: string;
	/** Base URL for the OpenAI SDK (`…/v1`). */
	openaiBaseUrl: string;
	/** Base URL for the Anthropic SDK (the SDK adds `/v1/messages`). */
	anthropicBaseUrl: string;
	/** Base URL of the Gemini OpenAI-compatible endpoint (the SDK adds `/chat/completions`). */
	googleBaseUrl: string;
	/** Queues replies; each request takes the next one. */
	script(replies: ScriptedReply[]): void;
	setHandler(handler: MockHandler | undefined): void;
	/** Every chat request received so far, in order (embeddings and images keep their own, below). */
	readonly requests: RecordedRequest[];
	/** OpenAI's embeddings endpoint (`/v1/embeddings`): its own script queue and request log. */
	readonly embeddings: EndpointMock<ScriptedEmbeddings>;
	/** OpenAI's images endpoint (`/v1/images/generations`): its own script queue and request log. */
	readonly images: EndpointMock<ScriptedImage>;
	/** Scripted replies not yet served. */
	pending(): number;
	/** Responses still open (streaming, hanging or endless): 0 once every client has finished or walked away. */
	openResponses(): number;
	/** Lets a stream held by a fault's `untilReleased` key go on to its fault (also before it gets there). */
	release(key: string): void;
	/** Answers as this local server does where it says what context it serves (llama.cpp, Ollama, vLLM); none by default. */
	serveAs(server: LocalServer | undefined): void;
	/** The requests those routes were asked, in order. */
	readonly localRequests: LocalRequest[];
	/** Forgets the script and the recorded requests. */
	reset(): void;
	close(): Promise<void>;
}

export interface EndpointMock<Reply> {
	/** Queues replies; each request takes the next one, then unscripted requests get a well-formed answer. */
	script(replies: Reply[]): void;
	readonly requests: EndpointRequest[];
	pending(): number;
}

/** Where each wire is served. */
const ROUTES: Readonly<Record<string, WireApi>> = {
	'/v1/chat/completions': 'openai',
	'/v1/messages': 'anthropic',
	'/v1beta/openai/chat/completions': 'google'
};

const DEFAULT_TEXT_CHUNK_CHARS = 6;
const DEFAULT_ARGUMENT_FRAGMENTS = 3;
const DEFAULT_ENDLESS_INTERVAL_MS = 20;
const DEFAULT_FRAMES_BEFORE_FAULT = 3;
/** `POST /mock/release/{key}`: releases a held fault from another process (the e2e tests). */
const RELEASE_ROUTE = /^\/mock\/release\/([^/]+)$/;

interface QueueEntry {
	reply: ScriptedReply;
	remaining: number;
}

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
	const queue: QueueEntry[] = [];
	const requests: RecordedRequest[] = [];
	const timers = new Set<ReturnType<typeof setInterval>>();
	let open = 0;
	let handler = options.handler;
	let local: LocalServer | undefined;
	const localRequests: LocalRequest[] = [];
	let seq = 0;
	let idCounter = 0;
	const strict = options.strict ?? true;
	const textChunkChars = options.textChunkChars ?? DEFAULT_TEXT_CHUNK_CHARS;
	const cache = options.promptCache === false ? undefined : new PromptCache();
	const nextId = (prefix: string) => `${prefix}${(++idCounter).toString().padStart(4, '0')}`;
	const endpoints = { embeddings: endpointState<ScriptedEmbeddings>(), images: endpointState<ScriptedImage>() };
	const releases = new Map<string, { released: Promise<void>; release: () => void }>();
	const releaseOf = (key: string) => {
		let entry = releases.get(key);
		if (!entry) {
			let release: () => void = () => undefined;
			const released = new Promise<void>((resolve) => (release = resolve));
			entry = { released, release };
			releases.set(key, entry);
		}
		return entry;
	};

	async function nextReply(request: RecordedRequest): Promise<ScriptedReply | undefined> {
		const head = queue[0];
		if (head) {
			head.remaining -= 1;
			if (head.remaining <= 0) queue.shift();
			return head.reply;
		}
		return handler ? handler(request) : undefined;
	}

	const server = http.createServer((req, res) => {
		void handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) sendJson(res, 500, { error: { message: `mock LLM crashed: ${String(error)}` } });
			else res.destroy();
		});
	});

	async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const path = (req.url ?? '/').split('?')[0] ?? '/';
		if (req.method === 'GET' && path === '/health') {
			sendJson(res, 200, { ok: true });
			return;
		}
		const releaseKey = req.method === 'POST' ? RELEASE_ROUTE.exec(path)?.[1] : undefined;
		if (releaseKey !== undefined) {
			releaseOf(decodeURIComponent(releaseKey)).release();
			sendJson(res, 200, { released: decodeURIComponent(releaseKey) });
			return;
		}
		if (local && (req.method === 'GET' || path === '/api/show')) {
			const body = req.method === 'POST' ? parseJson(await readBody(req)) : undefined;
			const answer = answerLocalServer(local, req.method ?? 'GET', path, body);
			if (answer) {
				localRequests.push({ method: req.method ?? 'GET', path, body });
				sendJson(res, answer.status, answer.body);
				return;
			}
		}
		const endpoint = req.method === 'POST' ? ENDPOINT_ROUTES[path] : undefined;
		if (endpoint) {
			await handleEndpoint(endpoint, path, req, res);
			return;
		}
		const api: WireApi | undefined = req.method !== 'POST' ? undefined : ROUTES[path];
		if (!api) {
			sendJson(res, 404, { error: { message: `mock LLM: no route for ${req.method} ${path}` } });
			return;
		}
		open += 1;
		res.on('close', () => {
			open -= 1;
		});
		const errorBody = api === 'anthropic' ? anthropicErrorBody : openAiErrorBody;

		const rawBody = await readBody(req);
		let body: unknown;
		try {
			body = JSON.parse(rawBody);
		} catch {
			sendJson(res, 400, errorBody(400, 'mock LLM: the body is not JSON'));
			return;
		}
		const openai = api !== 'anthropic' ? checkOpenAiBody(body) : undefined;
		const anthropic = api === 'anthropic' ? checkAnthropicBody(body) : undefined;
		const problem = openai && !openai.ok ? openai.message : anthropic && !anthropic.ok ? anthropic.message : undefined;
		const request: RecordedRequest = {
			seq: ++seq,
			api,
			method: req.method ?? 'POST',
			path,
			headers: flatHeaders(req.headers),
			body,
			openai: openai?.ok ? openai.body : undefined,
			anthropic: anthropic?.ok ? anthropic.body : undefined,
			stream: typeof body === 'object' && body !== null && 'stream' in body && body.stream === true
		};
		requests.push(request);

		if (options.apiKey !== undefined) {
			const given = apiKeyOf(request);
			if (given !== options.apiKey) {
				sendJson(res, 401, errorBody(401, 'mock LLM: invalid API key'));
				return;
			}
		}
		if (strict && problem !== undefined) {
			sendJson(res, 400, errorBody(400, `mock LLM: ${problem}`));
			return;
		}

		const scripted = await nextReply(request);
		if (!scripted) {
			sendJson(res, 400, errorBody(400, `mock LLM: nothing scripted for request #${request.seq}`));
			return;
		}
		const fault = scripted.fault;
		if (fault?.kind === 'status') {
			const headers: Record<string, string> = {};
			if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
			const message = fault.message ?? `mock LLM: scripted ${fault.status}`;
			const echoed = fault.echoRequest ? `${message} (request: ${systemTextOf(request) ?? rawBody})` : message;
			sendJson(res, fault.status, errorBody(fault.status, echoed), headers);
			return;
		}
		if (fault?.kind === 'hang') return; // the socket stays open until the client gives up or close() runs

		const reply = toWireReply(scripted, request, rawBody.length);
		const messageId = nextId(api === 'anthropic' ? 'msg_mock' : 'chatcmpl-mock');
		if (!request.stream) {
			sendJson(res, 200, api === 'anthropic' ? anthropicJson(reply, messageId) : openAiJson(reply, messageId));
			return;
		}

		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
		res.flushHeaders();
		let closed = false;
		res.on('close', () => {
			closed = true;
		});
		// Read through a call: the socket may close while the loop below awaits, which narrowing cannot see.
		const isClosed = (): boolean => closed;

		if (fault?.kind === 'endless') {
			const send = fault.send ?? 'delta';
			const opening = api === 'anthropic' ? anthropicEndlessOpening(reply, messageId) : openAiEndlessOpening(reply, messageId);
			for (const frame of opening) res.write(frame);
			const frame = api === 'anthropic' ? anthropicEndlessFrame(send) : openAiEndlessFrame(reply, messageId, send);
			const timer = setInterval(() => {
				if (closed) {
					clearInterval(timer);
					timers.delete(timer);
					return;
				}
				res.write(frame);
			}, fault.intervalMs ?? DEFAULT_ENDLESS_INTERVAL_MS);
			timers.add(timer);
			return;
		}

		const includeUsage = request.openai?.stream_options?.include_usage === true;
		const frames = api === 'anthropic' ? anthropicStreamFrames(reply, messageId) : openAiStreamFrames(reply, messageId, includeUsage);
		const cutAfter =
			fault?.kind === 'close-mid-stream' || fault?.kind === 'end-early' ? (fault.afterFrames ?? DEFAULT_FRAMES_BEFORE_FAULT) : Infinity;
		for (const [i, frame] of frames.entries()) {
			if (isClosed()) return;
			if (i >= cutAfter) {
				const held = fault?.kind === 'close-mid-stream' || fault?.kind === 'end-early' ? fault.untilReleased : undefined;
				if (held !== undefined) await Promise.race([releaseOf(held).released, once(res, 'close')]);
				if (isClosed()) return;
				if (fault?.kind === 'close-mid-stream') res.socket?.destroy();
				else res.end();
				return;
			}
			// Waiting for each write keeps a later cut from discarding frames still in the buffer.
			// `{{now}}` in scripted text becomes the send time (ms since the epoch): latency measurements.
			const stamped = frame.includes(NOW_MARKER) ? frame.replaceAll(NOW_MARKER, String(Date.now())) : frame;
			await new Promise<void>((resolve) => res.write(stamped, () => resolve()));
			if (scripted.frameDelayMs) await sleep(scripted.frameDelayMs);
		}
		res.end();
	}

	async function handleEndpoint(name: EndpointName, path: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		open += 1;
		res.on('close', () => {
			open -= 1;
		});
		const state = endpoints[name];
		let body: unknown;
		try {
			body = JSON.parse(await readBody(req));
		} catch {
			sendJson(res, 400, openAiErrorBody(400, `mock ${name}: the body is not JSON`));
			return;
		}
		const request: EndpointRequest = { seq: state.requests.length + 1, path, headers: flatHeaders(req.headers), body };
		state.requests.push(request);
		if (options.apiKey !== undefined && request.headers['authorization']?.replace(/^Bearer\s+/i, '') !== options.apiKey) {
			sendJson(res, 401, openAiErrorBody(401, 'mock LLM: invalid API key'));
			return;
		}
		const problem = strict ? endpointBodyProblem(name, body) : undefined;
		if (problem !== undefined) {
			sendJson(res, 400, openAiErrorBody(400, `mock ${name}: ${problem}`));
			return;
		}
		const answer = answerEndpoint(name, state.next(), body);
		if (answer === 'hang') return; // the socket stays open until the client gives up or close() runs
		sendJson(res, answer.status, answer.body, answer.headers);
	}

	function toWireReply(scripted: ScriptedReply, request: RecordedRequest, requestChars: number): WireReply {
		const text = scripted.text === undefined ? [] : Array.isArray(scripted.text) ? scripted.text : chunkText(scripted.text, textChunkChars);
		const toolCalls = (scripted.toolCalls ?? []).map((call) => {
			const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
			return {
				id: call.id ?? nextId(request.api === 'anthropic' ? 'toolu_mock' : 'call_mock'),
				name: call.name,
				arguments: args,
				fragments: splitInto(args, call.fragments ?? DEFAULT_ARGUMENT_FRAGMENTS)
			};
		});
		const outputChars = text.join('').length + toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
		const usage = scripted.usage;
		const inputTokens = usage?.inputTokens ?? Math.ceil(requestChars / CHARS_PER_TOKEN);
		// The cache sees every request; its numbers are used only where the script gives none.
		const cached = cache?.usage(request) ?? { cachedInputTokens: 0, cacheWriteTokens: 0 };
		const fromCache = (n: number) => (usage ? 0 : Math.min(n, inputTokens));
		return {
			model: request.openai?.model ?? request.anthropic?.model ?? 'mock-model',
			text,
			toolCalls,
			interleaveToolCalls: scripted.interleaveToolCalls ?? false,
			usage: {
				inputTokens,
				outputTokens: usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / CHARS_PER_TOKEN)),
				cachedInputTokens: usage?.cachedInputTokens ?? fromCache(cached.cachedInputTokens),
				cacheWriteTokens:
					usage?.cacheWriteTokens ?? Math.min(fromCache(cached.cacheWriteTokens), inputTokens - fromCache(cached.cachedInputTokens)),
				thoughtTokens: request.api === 'google' ? (usage?.thoughtTokens ?? 0) : 0,
				reasoningTokens: request.api === 'openai' ? (usage?.thoughtTokens ?? 0) : 0
			},
			finish: scripted.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop')
		};
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('mock LLM: no TCP address');
	const { port, family, address: host } = address satisfies AddressInfo;
	const url = `http://${family === 'IPv6' ? `[${host}]` : host}:${port}`;

	return {
		url,
		openaiBaseUrl: `${url}/v1`,
		anthropicBaseUrl: url,
		googleBaseUrl: `${url}/v1beta/openai`,
		requests,
		embeddings: endpoints.embeddings.mock,
		images: endpoints.images.mock,
		script(replies) {
			for (const reply of replies) queue.push({ reply, remaining: reply.times ?? 1 });
		},
		setHandler(next) {
			handler = next;
		},
		pending: () => queue.reduce((sum, entry) => sum + entry.remaining, 0),
		openResponses: () => open,
		release(key) {
			releaseOf(key).release();
		},
		serveAs(server) {
			local = server;
		},
		localRequests,
		reset() {
			localRequests.length = 0;
			cache?.forget();
			queue.length = 0;
			requests.length = 0;
			seq = 0;
			endpoints.embeddings.reset();
			endpoints.images.reset();
		},
		close() {
			for (const timer of timers) clearInterval(timer);
			timers.clear();
			return new Promise((resolve) => {
				server.close(() => resolve());
				// Hanging and endless responses would otherwise keep close() waiting forever.
				server.closeAllConnections();
			});
		}
	};
}

/** One endpoint's script queue and request log. */
function endpointState<Reply extends { times?: number }>() {
	const queue: { reply: Reply; remaining: number }[] = [];
	const requests: EndpointRequest[] = [];
	return {
		requests,
		next(): Reply | undefined {
			const head = queue[0];
			if (!head) return undefined;
			head.remaining -= 1;
			if (head.remaining <= 0) queue.shift();
			return head.reply;
		},
		reset() {
			queue.length = 0;
			requests.length = 0;
		},
		mock: {
			requests,
			script(replies: Reply[]) {
				for (const reply of replies) queue.push({ reply, remaining: reply.times ?? 1 });
			},
			pending: () => queue.reduce((sum, entry) => sum + entry.remaining, 0)
		} satisfies EndpointMock<Reply>
	};
}

/** The key a request carried: OpenAI SDKs send `Authorization: Bearer`; Anthropic's send `x-api-key` or, lately, Bearer too. */
export function apiKeyOf(request: RecordedRequest): string | undefined {
	const bearer = request.headers['authorization']?.replace(/^Bearer\s+/i, '');
	return request.api === 'anthropic' ? (request.headers['x-api-key'] ?? bearer) : bearer;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
	res.end(text);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

/** Cuts text into pieces of `size` code points, so multi-byte characters are never split. */
export function chunkText(text: string, size: number): string[] {
	const points = [...text];
	const pieces: string[] = [];
	for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
	return pieces;
}

/** Splits text into `parts` pieces of nearly equal length (fewer when the text is shorter). */
export function splitInto(text: string, parts: number): string[] {
	const points = [...text];
	if (points.length === 0) return [];
	const size = Math.ceil(points.length / Math.max(1, parts));
	return chunkText(text, size);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

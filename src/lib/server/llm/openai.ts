/**
 * OpenAI Chat Completions adapter. Any OpenAI-compatible server works through `baseUrl` (Ollama, vLLM,
 * llama.cpp, OpenRouter, Gemini's compatible endpoint), so the request uses only the widely shared subset.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
	ChatCompletionChunk,
	ChatCompletionCreateParamsStreaming,
	ChatCompletionMessageParam,
	ChatCompletionTool
} from 'openai/resources/chat/completions';
import { retryAfterMs } from '../retry';
import { errorFromStatus, LlmError, networkError, shortDetail } from './errors';
import { guardedStream, type LlmRetryPolicy, type LlmTimeouts } from './guarded-stream';
import { mapGeminiUsage, mapOpenAiUsage, OpenAiStreamDecoder } from './openai-decoder';
import { servedContextOf } from './server-context';
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest, LlmToolSpec, ProviderName } from './types';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Sent in place of a key to servers that need none (a local Ollama or llama.cpp): the SDK insists on one.
 * Never used for OpenAI's own endpoint, where createProvider demands a real key.
 */
export const OPENAI_PLACEHOLDER_KEY = 'not-needed';

/**
 * OpenAI's newer models refuse `max_tokens` and want `max_completion_tokens`; many compatible servers only
 * know `max_tokens`. `auto` picks the former for OpenAI's own endpoint and the latter elsewhere.
 */
export type MaxTokensField = 'auto' | 'max_tokens' | 'max_completion_tokens';

export interface OpenAiProviderOptions {
	/** Which vendor this wire format reaches: `openai` (and compatible servers) or `google` (Gemini's compatible endpoint). */
	name?: Extract<ProviderName, 'openai' | 'google'>;
	apiKey: string;
	baseUrl: string;
	timeouts: LlmTimeouts;
	retry: LlmRetryPolicy;
	maxTokensField?: MaxTokensField;
	random?: () => number;
}

export function createOpenAiProvider(options: OpenAiProviderOptions): LlmProvider {
	const client = new OpenAI({
		apiKey: options.apiKey,
		baseURL: options.baseUrl,
		// Our guard owns retries and timeouts (see guarded-stream.ts); the SDK's would double them.
		maxRetries: 0,
		timeout: options.timeouts.deadlineMs,
		// Explicit nulls keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID behind config's back.
		organization: null,
		project: null
	});
	const maxTokensField = resolveMaxTokensField(options.maxTokensField ?? 'auto', options.baseUrl);
	const name = options.name ?? 'openai';
	const mapUsage = name === 'google' ? mapGeminiUsage : mapOpenAiUsage;
	// Only a server of someone's own says what context it serves with (llama.cpp, Ollama, vLLM): the vendors' APIs don't.
	const local = name === 'openai' && new URL(options.baseUrl).hostname !== new URL(OPENAI_DEFAULT_BASE_URL).hostname;
	const servedContext = local
		? servedContextOf({ baseUrl: options.baseUrl, warn: (message) => console.warn(`[kantera] ${message}`) })
		: undefined;

	return {
		name,
		...(servedContext ? { servedContext } : {}),
		stream(req: LlmRequest): AsyncGenerator<LlmEvent, void, undefined> {
			const body = toOpenAiRequest(req, maxTokensField);
			return guardedStream<ChatCompletionChunk>({
				provider: name,
				signal: req.signal,
				timeouts: options.timeouts,
				retry: options.retry,
				random: options.random,
				onRetry: req.onRetry,
				open: (signal) => client.chat.completions.create(body, { signal }),
				newDecoder: () => new OpenAiStreamDecoder(mapUsage),
				classify: (error) => classifyOpenAiError(error, name)
			});
		}
	};
}

function resolveMaxTokensField(field: MaxTokensField, baseUrl: string): 'max_tokens' | 'max_completion_tokens' {
	if (field !== 'auto') return field;
	return new URL(baseUrl).hostname === new URL(OPENAI_DEFAULT_BASE_URL).hostname ? 'max_completion_tokens' : 'max_tokens';
}

function toOpenAiRequest(req: LlmRequest, maxTokensField: 'max_tokens' | 'max_completion_tokens'): ChatCompletionCreateParamsStreaming {
	const body: ChatCompletionCreateParamsStreaming = {
		model: req.model,
		messages: [{ role: 'system', content: req.system }, ...req.messages.map(toOpenAiMessage)],
		stream: true,
		stream_options: { include_usage: true }
	};
	// Several compatible servers reject an empty tools array, so none is sent when there are no tools.
	if (req.tools.length > 0) body.tools = req.tools.map(toOpenAiTool);
	if (req.maxOutputTokens !== undefined) body[maxTokensField] = req.maxOutputTokens;
	if (req.temperature !== undefined) body.temperature = req.temperature;
	return body;
}

function toOpenAiTool(tool: LlmToolSpec): ChatCompletionTool {
	return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function toOpenAiMessage(message: LlmMessage): ChatCompletionMessageParam {
	switch (message.role) {
		case 'user':
			return { role: 'user', content: message.content };
		case 'assistant':
			if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
			return {
				role: 'assistant',
				// `null`, not '', beside tool calls: some compatible servers choke on an empty string there.
				content: message.content === '' ? null : message.content,
				tool_calls: message.toolCalls.map((call) => ({
					id: call.id,
					type: 'function',
					function: { name: call.name, arguments: call.arguments }
				}))
			};
		case 'tool':
			return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
	}
}

function classifyOpenAiError(error: unknown, provider: Extract<ProviderName, 'openai' | 'google'> = 'openai'): LlmError {
	if (error instanceof LlmError) return error;
	if (error instanceof APIUserAbortError) return new LlmError('aborted', 'The request was aborted.', { provider, cause: error });
	if (error instanceof APIConnectionTimeoutError)
		return new LlmError('timeout', 'The OpenAI-compatible server did not answer in time.', { provider, cause: error });
	if (error instanceof APIConnectionError) return networkError(provider, error);
	if (error instanceof APIError) {
		if (typeof error.status === 'number') {
			return errorFromStatus(provider, error.status, shortDetail(apiMessage(error.error, error.message)), {
				retryAfterMs: retryAfterMs(error.headers instanceof Headers ? error.headers : undefined),
				cause: error
			});
		}
		// An error object inside the stream, after a 200: the server failed mid-answer.
		return new LlmError('server', `The OpenAI-compatible server reported an error mid-stream: ${shortDetail(error.message)}`, {
			provider,
			cause: error
		});
	}
	if (error instanceof SyntaxError)
		return new LlmError('protocol', `The OpenAI-compatible server sent a chunk that is not JSON: ${shortDetail(error.message)}`, {
			provider,
			cause: error
		});
	return networkError(provider, error);
}

/**
 * The server's own words in an API error: the `message` of the error body the SDK parsed (its own message repeats
 * the status in front of them), else the SDK's message.
 */
export function apiMessage(body: unknown, fallback: string): string {
	if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
	return fallback;
}

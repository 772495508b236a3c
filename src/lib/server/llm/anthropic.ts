/** Anthropic Messages adapter (`@anthropic-ai/sdk`), base URL configurable for compatible gateways. */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
	ContentBlockParam,
	MessageCreateParamsStreaming,
	MessageParam,
	RawMessageStreamEvent,
	TextBlockParam,
	Tool
} from '@anthropic-ai/sdk/resources/messages';
import * as v from 'valibot';
import { AnthropicStreamDecoder } from './anthropic-decoder';
import { retryAfterMs } from '../retry';
import { errorFromStatus, LlmError, networkError, shortDetail } from './errors';
import { guardedStream, type LlmRetryPolicy, type LlmTimeouts } from './guarded-stream';
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest, LlmToolSpec } from './types';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The Messages API requires max_tokens; this is the cap when the caller sets none. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

export interface AnthropicProviderOptions {
	apiKey: string;
	baseUrl: string;
	timeouts: LlmTimeouts;
	retry: LlmRetryPolicy;
	/**
	 * Prompt-cache breakpoints (on by default): one after the stable prefix (tool schemas + pinned mission), read
	 * at the cache price by every later call of the session, and one after the whole system text, read by the
	 * later tool rounds of the same turn.
	 */
	promptCaching?: boolean;
	random?: () => number;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
	const client = new Anthropic({
		apiKey: options.apiKey,
		// An explicit key is the client's only credential: ANTHROPIC_AUTH_TOKEN and profiles are never consulted.
		authToken: null,
		baseURL: options.baseUrl,
		// Our guard owns retries and timeouts (see guarded-stream.ts); the SDK's would double them.
		maxRetries: 0,
		timeout: options.timeouts.deadlineMs
	});
	const promptCaching = options.promptCaching ?? true;

	return {
		name: 'anthropic',
		stream(req: LlmRequest): AsyncGenerator<LlmEvent, void, undefined> {
			const body = toAnthropicRequest(req, { promptCaching });
			return guardedStream<RawMessageStreamEvent>({
				provider: 'anthropic',
				signal: req.signal,
				timeouts: options.timeouts,
				retry: options.retry,
				random: options.random,
				onRetry: req.onRetry,
				open: (signal) => client.messages.create(body, { signal }),
				newDecoder: () => new AnthropicStreamDecoder(),
				classify: classifyAnthropicError
			});
		}
	};
}

function toAnthropicRequest(req: LlmRequest, options: { promptCaching: boolean }): MessageCreateParamsStreaming {
	const body: MessageCreateParamsStreaming = {
		model: req.model,
		max_tokens: req.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
		messages: toAnthropicMessages(req.messages),
		stream: true
	};
	if (req.system !== '') body.system = options.promptCaching ? cachedSystem(req.system, req.stableSystemChars ?? 0) : req.system;
	if (req.tools.length > 0) body.tools = req.tools.map(toAnthropicTool);
	// No temperature: the Messages API of this SDK generation no longer takes one.
	return body;
}

/**
 * The system text as blocks with cache breakpoints. Anthropic caches the prefix up to each breakpoint (tools,
 * then system blocks, in that order), so the split never changes a byte of what the model reads.
 */
function cachedSystem(system: string, stableChars: number): TextBlockParam[] {
	const ephemeral = { type: 'ephemeral' } as const;
	const split = Math.min(Math.max(0, stableChars), system.length);
	if (split === 0 || split === system.length) return [{ type: 'text', text: system, cache_control: ephemeral }];
	return [
		{ type: 'text', text: system.slice(0, split), cache_control: ephemeral },
		{ type: 'text', text: system.slice(split), cache_control: ephemeral }
	];
}

function toAnthropicTool(tool: LlmToolSpec): Tool {
	return { name: tool.name, description: tool.description, input_schema: { ...tool.parameters, type: 'object' } };
}

/**
 * Neutral messages → Anthropic turns. Tool results travel as `tool_result` blocks in a user turn, and
 * consecutive messages of one role are merged into one turn, because Anthropic wants user and assistant to
 * alternate (all results of one round in one user turn, before any other text of that turn).
 */
function toAnthropicMessages(messages: LlmMessage[]): MessageParam[] {
	const turns: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
	for (const message of messages) {
		const role = message.role === 'assistant' ? 'assistant' : 'user';
		const blocks = toBlocks(message);
		if (blocks.length === 0) continue;
		const last = turns.at(-1);
		if (last && last.role === role) last.content.push(...blocks);
		else turns.push({ role, content: blocks });
	}
	return turns;
}

function toBlocks(message: LlmMessage): ContentBlockParam[] {
	switch (message.role) {
		case 'user':
			// Anthropic rejects empty text blocks.
			return message.content === '' ? [] : [{ type: 'text', text: message.content }];
		case 'assistant': {
			const blocks: ContentBlockParam[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
			for (const call of message.toolCalls ?? []) {
				blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
			}
			return blocks;
		}
		case 'tool':
			return [
				{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, ...(message.isError ? { is_error: true } : {}) }
			];
	}
}

const JsonObject = v.record(v.string(), v.unknown());

/**
 * A tool_use block needs its input as an object. When the model's arguments were not a JSON object (the tool
 * layer has already told it so in the tool_result), `{}` keeps the history sendable.
 */
function toolInput(argumentsText: string): Record<string, unknown> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(argumentsText);
	} catch {
		return {};
	}
	const result = v.safeParse(JsonObject, parsed);
	return result.success ? result.output : {};
}

function classifyAnthropicError(error: unknown): LlmError {
	if (error instanceof LlmError) return error;
	if (error instanceof APIUserAbortError)
		return new LlmError('aborted', 'The Anthropic request was aborted.', { provider: 'anthropic', cause: error });
	if (error instanceof APIConnectionTimeoutError)
		return new LlmError('timeout', 'The Anthropic server did not answer in time.', { provider: 'anthropic', cause: error });
	if (error instanceof APIConnectionError) return networkError('anthropic', error);
	if (error instanceof APIError) {
		const detail = shortDetail(error.apiMessage ?? error.message);
		if (typeof error.status === 'number')
			return errorFromStatus('anthropic', error.status, detail, {
				retryAfterMs: retryAfterMs(error.headers instanceof Headers ? error.headers : undefined),
				cause: error
			});
		// An `event: error` inside a 200 stream, e.g. overloaded_error.
		if (error.type === 'rate_limit_error')
			return new LlmError('rate_limit', `The Anthropic server is rate-limiting us: ${detail}`, { provider: 'anthropic', cause: error });
		if (error.type === 'invalid_request_error')
			return new LlmError('bad_request', `The Anthropic server refused the request: ${detail}`, { provider: 'anthropic', cause: error });
		return new LlmError('server', `The Anthropic server reported an error mid-stream (${error.type ?? 'unknown'}): ${detail}`, {
			provider: 'anthropic',
			cause: error
		});
	}
	if (error instanceof SyntaxError)
		return new LlmError('protocol', `The Anthropic server sent an event that is not JSON: ${shortDetail(error.message)}`, {
			provider: 'anthropic',
			cause: error
		});
	return networkError('anthropic', error);
}

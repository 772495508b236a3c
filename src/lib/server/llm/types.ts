/**
 * Provider-neutral LLM types. Everything outside `llm/` speaks only these; the adapters translate them to and
 * from each vendor's wire format.
 */

import type { ProviderName } from '../../types/settings';
import type { LlmError } from './errors';

export type { ProviderName };

/** A tool the model may call. `parameters` is a JSON Schema object (produced from the tool's valibot schema). */
export interface LlmToolSpec {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

/** A tool call as the model made it. `arguments` is the model's raw JSON text, unparsed and unvalidated. */
export interface LlmToolCall {
	id: string;
	name: string;
	arguments: string;
}

export type LlmMessage =
	| { role: 'user'; content: string }
	| { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
	/** The result of one tool call. `isError` is sent as Anthropic's `is_error`; OpenAI has no such flag, so the content itself must say so. */
	| { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface LlmRequest {
	model: string;
	/** The pinned mission + context head; sent as the system field verbatim, never altered by the adapter. */
	system: string;
	/**
	 * How many leading characters of `system` stay byte-identical for the whole session (the pinned mission):
	 * with the tool schemas before it, the prompt-cache prefix. Anthropic gets a cache breakpoint there; the
	 * OpenAI wire sends the system text first anyway, so its automatic prefix cache finds the same bytes.
	 */
	stableSystemChars?: number;
	messages: LlmMessage[];
	tools: LlmToolSpec[];
	maxOutputTokens?: number;
	/** OpenAI-compatible servers only: Anthropic's current Messages API takes none, so it is not sent there. */
	temperature?: number;
	signal?: AbortSignal;
	/** Told before each retry of this call, with the error that caused it. */
	onRetry?: (error: LlmError) => void;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * Token counts of one call. `inputTokens` is ALL input tokens, including those read from or written to a prompt
 * cache (Anthropic reports these apart; the adapter adds them up), so a price table can charge
 * `inputTokens - cachedInputTokens - (cacheWriteTokens ?? 0)` at the normal rate and the rest at the cache rates.
 */
export interface LlmUsage {
	inputTokens: number;
	outputTokens: number;
	cachedInputTokens: number;
	cacheWriteTokens?: number;
	/**
	 * Of `outputTokens`, those the model spent reasoning (billed, never part of the text), when the server says
	 * so. The rest is the text and tool calls the call returned.
	 */
	reasoningTokens?: number;
}

/**
 * What a stream yields, in this order: `text` deltas as they arrive, each `tool_call` once its arguments are
 * complete, then `usage` (at most once; absent only when the server reported none), then exactly one `finish`.
 * A stream that cannot finish throws an LlmError instead of yielding `finish`.
 */
export type LlmEvent =
	| { type: 'text'; delta: string }
	| ({ type: 'tool_call' } & LlmToolCall)
	| ({ type: 'usage' } & LlmUsage)
	| { type: 'finish'; reason: FinishReason };

export interface LlmProvider {
	readonly name: ProviderName;
	stream(req: LlmRequest): AsyncGenerator<LlmEvent, void, undefined>;
	/**
	 * The context the server serves `model` with, where it says (a local server's own setting, llm/server-context.ts);
	 * undefined where it does not say or could not be asked. Never throws.
	 */
	servedContext?(model: string, signal?: AbortSignal): Promise<number | undefined>;
}

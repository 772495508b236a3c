/** What a test scripts into the mock LLM, and what the mock records. */
import type { AnthropicBody, OpenAiBody } from './request-shapes';

/** `google` is Gemini's OpenAI-compatible endpoint: the OpenAI wire under `/v1beta/openai`, with Gemini's usage numbers. */
export type WireApi = 'openai' | 'anthropic' | 'google';

export interface ScriptedToolCall {
	/** Defaults to a fresh `call_N` (OpenAI) or `toolu_N` (Anthropic) id, unique for the server's lifetime. */
	id?: string;
	name: string;
	/** An object is sent as its JSON; a string is sent verbatim, so it may be malformed on purpose. */
	arguments: string | Record<string, unknown>;
	/** How many stream fragments the argument text is split into (default 3). */
	fragments?: number;
}

export interface ScriptedUsage {
	/** All input tokens, cached ones included (on the Anthropic wire the cached parts are reported apart). */
	inputTokens: number;
	outputTokens: number;
	cachedInputTokens?: number;
	/** Anthropic only: tokens written to the prompt cache. */
	cacheWriteTokens?: number;
	/**
	 * Reasoning (thinking) tokens, billed as output and never part of the text. OpenAI counts them in
	 * completion_tokens on top of `outputTokens` and names them in completion_tokens_details; Gemini's
	 * compatible endpoint only in total_tokens. Not sent on the Anthropic wire.
	 */
	thoughtTokens?: number;
}

export type ScriptedFault =
	/**
	 * Answer with this HTTP status and the vendor's error body. With `echoRequest`, the message goes on with
	 * the request's system text, as providers do that quote the prompt back in their errors.
	 */
	| { kind: 'status'; status: number; message?: string; retryAfterSeconds?: number; echoRequest?: boolean }
	/** Read the request and never answer (not even headers). */
	| { kind: 'hang' }
	/** Start a stream and never finish it: a text delta or a keep-alive every `intervalMs`. */
	| { kind: 'endless'; send?: 'delta' | 'keepalive'; intervalMs?: number }
	/**
	 * Send this many stream frames of the reply, then destroy the socket. With `untilReleased`, the
	 * stream pauses there until the test releases that key (`MockLlm.release`, or `POST /mock/release/{key}`
	 * from another process), so the break lands after what the test had to see first, however slow the machine.
	 */
	| { kind: 'close-mid-stream'; afterFrames?: number; untilReleased?: string }
	/** Send this many stream frames, then end the response cleanly without a finish. */
	| { kind: 'end-early'; afterFrames?: number; untilReleased?: string };

export type ScriptedFinish = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export interface ScriptedReply {
	/** A string is cut into small deltas; an array is sent as exactly these deltas. */
	text?: string | string[];
	toolCalls?: ScriptedToolCall[];
	/** Send the fragments of several tool calls interleaved (the decoders must match them by index). */
	interleaveToolCalls?: boolean;
	/** Defaults to numbers derived from the request and reply sizes. */
	usage?: ScriptedUsage;
	/** Defaults to tool_calls when there are tool calls, else stop. */
	finish?: ScriptedFinish;
	fault?: ScriptedFault;
	/** Serve this reply for this many requests before moving on (default 1). */
	times?: number;
	/** Pause between stream frames. */
	frameDelayMs?: number;
}

export type MockHandler = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface RecordedRequest {
	/** 1-based, in arrival order. */
	seq: number;
	api: WireApi;
	method: string;
	path: string;
	headers: Record<string, string>;
	/** The parsed JSON body, exactly as received. */
	body: unknown;
	/** The body checked against the vendor's request shape (undefined for the other vendor or a bad body). */
	openai: OpenAiBody | undefined;
	anthropic: AnthropicBody | undefined;
	stream: boolean;
}

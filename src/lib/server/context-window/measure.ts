/**
 * How big a request is, in o200k tokens as the model would be sent it: the system text, each message with
 * its chat framing, the tool calls' names and arguments, and the tool schemas as the OpenAI wire sends them
 * (each wrapped in `{"type":"function","function":…}`, a little more than Anthropic's wire).
 *
 * A byte-level tokenizer never makes more tokens than the text has bytes (every token stands for at least
 * one byte; SentencePiece's byte fallback too), so a request whose bytes fit needs no counting at all: with a
 * context of a hundred thousand tokens or more, that is every request, and the tokenizer stays off the turn.
 */
import type { LlmMessage, LlmToolSpec } from '../llm';
import type { TokenCounter } from './policy';

/** Each message's chat framing (role and separators: OpenAI's format takes 3–4 tokens a message). */
export const MESSAGE_FRAMING_TOKENS = 4;
/** What primes the reply (OpenAI: 3 tokens) and starts the system message. */
export const REQUEST_FRAMING_TOKENS = 8;
/** A tool call's id and wrapping beside its name and arguments. */
const TOOL_CALL_FRAMING_TOKENS = 10;

export function messageTokens(m: LlmMessage, count: TokenCounter): number {
	let n = MESSAGE_FRAMING_TOKENS + (m.content ? count(m.content) : 0);
	if (m.role === 'assistant') for (const c of m.toolCalls ?? []) n += TOOL_CALL_FRAMING_TOKENS + count(c.name) + count(c.arguments);
	if (m.role === 'tool') n += TOOL_CALL_FRAMING_TOKENS;
	return n;
}

/** The upper bound of `messageTokens` that counts nothing (see the top). */
function messageBytes(m: LlmMessage): number {
	let n = MESSAGE_FRAMING_TOKENS + Buffer.byteLength(m.content);
	if (m.role === 'assistant')
		for (const c of m.toolCalls ?? []) n += TOOL_CALL_FRAMING_TOKENS + Buffer.byteLength(c.name) + Buffer.byteLength(c.arguments);
	if (m.role === 'tool') n += TOOL_CALL_FRAMING_TOKENS;
	return n;
}

/** The tools array as the OpenAI wire sends it. */
function toolsJson(tools: readonly LlmToolSpec[]): string {
	return JSON.stringify(
		tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }))
	);
}

/** Per tools array (one for the app's life, turn/request.ts) and counter: the schemas never change. */
const toolTokensOf = new WeakMap<readonly LlmToolSpec[], Map<TokenCounter, number>>();
const toolBytesOf = new WeakMap<readonly LlmToolSpec[], number>();

export function toolTokens(tools: readonly LlmToolSpec[], count: TokenCounter): number {
	let byCounter = toolTokensOf.get(tools);
	if (!byCounter) toolTokensOf.set(tools, (byCounter = new Map<TokenCounter, number>()));
	let n = byCounter.get(count);
	if (n === undefined) byCounter.set(count, (n = tools.length ? count(toolsJson(tools)) : 0));
	return n;
}

function toolBytes(tools: readonly LlmToolSpec[]): number {
	let n = toolBytesOf.get(tools);
	if (n === undefined) toolBytesOf.set(tools, (n = tools.length ? Buffer.byteLength(toolsJson(tools)) : 0));
	return n;
}

export interface MeasuredRequest {
	system: string;
	messages: readonly LlmMessage[];
	tools: readonly LlmToolSpec[];
}

/** The request's tokens, counted. */
export function requestTokens(r: MeasuredRequest, count: TokenCounter): number {
	let n = REQUEST_FRAMING_TOKENS + count(r.system) + toolTokens(r.tools, count);
	for (const m of r.messages) n += messageTokens(m, count);
	return n;
}

/** At least the request's tokens in any byte-level tokenizer, with nothing counted. */
export function requestBytesBound(r: MeasuredRequest): number {
	let n = REQUEST_FRAMING_TOKENS + Buffer.byteLength(r.system) + toolBytes(r.tools);
	for (const m of r.messages) n += messageBytes(m);
	return n;
}

/** Texts a counter has seen most recently, at most: enough for a few sessions' windows and heads. */
const MEMO_ENTRIES = 4096;

/**
 * A counter that remembers its last MEMO_ENTRIES answers. A window's exchanges, the mission and the head's
 * entries come back in request after request: each is counted once, not once a turn.
 */
export function memoizedCounter(count: TokenCounter): TokenCounter {
	const seen = new Map<string, number>();
	return (text) => {
		const known = seen.get(text);
		if (known !== undefined) {
			// Map keeps insertion order: re-inserting makes it the newest, and the oldest is dropped first.
			seen.delete(text);
			seen.set(text, known);
			return known;
		}
		const n = count(text);
		seen.set(text, n);
		if (seen.size > MEMO_ENTRIES)
			for (const oldest of seen.keys()) {
				seen.delete(oldest);
				break;
			}
		return n;
	};
}

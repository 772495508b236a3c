/**
 * A provider's prompt cache as OpenAI keeps one, for the in-process scripted GM: a request's cached input is
 * the longest prefix it shares with the previous request (the tools, then the system text, then the messages
 * in order), counted in o200k tokens and rounded down to 128-token blocks, nothing below 1,024 tokens.
 * (OpenAI matches against any recent request of the same prefix; the previous one is what a single session
 * playing on its own hits.)
 */
import type { LlmRequest } from '../../src/lib/server/llm';
import type { TokenCounter } from '../../src/lib/server/context-window';

/** OpenAI caches prompts from this many tokens... */
export const MIN_CACHED_TOKENS = 1024;
/** ...in blocks of this many. */
export const CACHE_BLOCK_TOKENS = 128;

/** The request as the model reads it, in pieces: a piece equal to the previous request's is cached whole. */
function pieces(req: LlmRequest): string[] {
	const out = [JSON.stringify(req.tools), req.system];
	for (const m of req.messages) {
		out.push(`${m.role}\u0000${m.content}`);
		if (m.role === 'assistant') for (const c of m.toolCalls ?? []) out.push(`${c.id}\u0000${c.name}\u0000${c.arguments}`);
		if (m.role === 'tool') out.push(m.toolCallId);
	}
	return out;
}

function commonPrefix(a: string, b: string): string {
	const n = Math.min(a.length, b.length);
	let i = 0;
	while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return a.slice(0, i);
}

export class PrefixCache {
	private previous: string[] = [];

	constructor(private readonly count: TokenCounter) {}

	/** The cached input tokens of `req`, which then becomes the previous request. */
	cachedTokens(req: LlmRequest): number {
		const now = pieces(req);
		let tokens = 0;
		for (const [i, piece] of now.entries()) {
			const before = this.previous[i];
			if (before === piece) {
				tokens += this.count(piece);
				continue;
			}
			if (before !== undefined) tokens += this.count(commonPrefix(before, piece));
			break;
		}
		this.previous = now;
		return tokens < MIN_CACHED_TOKENS ? 0 : tokens - (tokens % CACHE_BLOCK_TOKENS);
	}
}

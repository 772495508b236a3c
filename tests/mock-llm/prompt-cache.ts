/**
 * A prompt cache the way the vendors keep one, so the mock's default usage numbers report cached input as a
 * real server would: OpenAI and Gemini cache the longest prefix seen before automatically (from 1,024
 * tokens, in steps of 128); Anthropic caches the prefix up to each `cache_control` breakpoint (tools, then
 * system blocks, then messages), writing it the first time and reading it afterwards.
 */
import type { RecordedRequest } from './types';

/** Rough characters per token, as in the mock's other defaults; only consistency matters. */
export const CHARS_PER_TOKEN = 4;
/** Below this many tokens nothing is cached (OpenAI's and Anthropic's minimum for most models). */
export const MIN_CACHED_TOKENS = 1024;
/** OpenAI reports cache hits in steps of this many tokens. */
const OPENAI_CACHE_STEP = 128;

export interface CachedUsage {
	cachedInputTokens: number;
	cacheWriteTokens: number;
}

const tokens = (chars: number) => Math.floor(chars / CHARS_PER_TOKEN);

function commonPrefix(a: string, b: string): number {
	const n = Math.min(a.length, b.length);
	let i = 0;
	while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

export class PromptCache {
	/** OpenAI wire: earlier prompts, per model. */
	private readonly prompts = new Map<string, string[]>();
	/** Anthropic: cached prefixes, keyed by model and text. */
	private readonly prefixes = new Set<string>();

	usage(request: RecordedRequest): CachedUsage {
		if (request.openai) return this.automatic(request.openai.model, JSON.stringify([request.openai.tools ?? [], request.openai.messages]));
		if (request.anthropic) return this.breakpoints(request);
		return { cachedInputTokens: 0, cacheWriteTokens: 0 };
	}

	forget(): void {
		this.prompts.clear();
		this.prefixes.clear();
	}

	private automatic(model: string, prompt: string): CachedUsage {
		const earlier = this.prompts.get(model) ?? [];
		const longest = Math.max(0, ...earlier.map((p) => commonPrefix(p, prompt)));
		earlier.push(prompt);
		this.prompts.set(model, earlier);
		const hit = tokens(longest);
		return { cachedInputTokens: hit < MIN_CACHED_TOKENS ? 0 : hit - (hit % OPENAI_CACHE_STEP), cacheWriteTokens: 0 };
	}

	private breakpoints(request: RecordedRequest): CachedUsage {
		const body = request.anthropic;
		if (!body) return { cachedInputTokens: 0, cacheWriteTokens: 0 };
		// The prefix at each breakpoint, in the order Anthropic builds the prompt.
		const cuts: string[] = [];
		let prefix = JSON.stringify(body.tools ?? []);
		const system =
			typeof body.system === 'string' ? [{ type: 'text' as const, text: body.system, cache_control: undefined }] : (body.system ?? []);
		for (const block of system) {
			prefix += block.text;
			if (block.cache_control) cuts.push(prefix);
		}
		for (const message of body.messages) {
			for (const block of typeof message.content === 'string' ? [{ text: message.content, cache_control: undefined }] : message.content) {
				prefix += JSON.stringify(block);
				if ('cache_control' in block && block.cache_control) cuts.push(prefix);
			}
		}
		const key = (text: string) => `${body.model}\u0000${text}`;
		let read = 0;
		let written = 0;
		for (const cut of cuts) {
			const size = tokens(cut.length);
			if (size < MIN_CACHED_TOKENS) continue;
			if (this.prefixes.has(key(cut))) read = size;
			else {
				this.prefixes.add(key(cut));
				written = size;
			}
		}
		return { cachedInputTokens: read, cacheWriteTokens: written > read ? written - read : 0 };
	}
}

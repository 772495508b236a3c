/**
 * What one request may take of a model's context: the reply's output cap first, then the input, counted
 * with the o200k tokenizer and a margin for the model's own.
 *
 * Which tokenizer each provider gets: o200k is OpenAI's own (gpt-4o, gpt-4.1, gpt-5, the o-series), so
 * those models get no margin. Every other model is counted with o200k too and given a margin measured on
 * the campaign bench's texts (English and Japanese play, the GM rules, the tool schemas) against its
 * family's tokenizer (docs/performance.md, "Tokenizers"): the largest ratio seen, rounded up with room to
 * spare. Gemini's and Gemma's count at most 1.06× o200k, Llama 3.1's and Qwen 3's 1.03×, the public Claude
 * tokenizer 1.28× (Japanese; Claude 3 and later do not publish theirs), Mistral's 1.32× (Japanese). A model
 * of a family not listed gets the largest margin.
 */
import type { ProviderName } from '../../types/settings';

/** The reply's output cap per call, at most: generous for narration, bounded so one call can't run away. */
export const MAX_OUTPUT_TOKENS = 4096;
/** At least this much is left for the reply, however small the context. */
export const MIN_OUTPUT_TOKENS = 256;
/** The reply may take up to this share of the context (a quarter: 1,024 tokens of a 4k model). */
const OUTPUT_SHARE = 0.25;

/** The margin for a model whose tokenizer is not o200k and not measured: Mistral's, the worst measured, with room. */
export const UNKNOWN_TOKENIZER_MARGIN = 1.4;

/** o200k_base is these models' own tokenizer. */
const O200K_MODELS = /^(gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4|chatgpt-4o)/;

/** Model families served by OpenAI-compatible servers (Ollama, llama.cpp, vLLM, LM Studio) and their margins. */
const FAMILY_MARGINS: readonly (readonly [RegExp, number])[] = [
	[/llama|qwen|deepseek/i, 1.1],
	[/gemma/i, 1.1],
	[/stral/i, UNKNOWN_TOKENIZER_MARGIN]
];

/** Per provider, for the vendors' own endpoints (a compatible server's models go by their family). */
const PROVIDER_MARGINS: Readonly<Record<Exclude<ProviderName, 'openai'>, number>> = { google: 1.1, anthropic: 1.35 };

/**
 * How much larger than the o200k count a model's own count may be. `ownEndpoint`: the provider's own API
 * (not a compatible server at a base URL, whose models are anyone's).
 */
export function tokenizerMargin(provider: ProviderName, model: string, ownEndpoint: boolean): number {
	if (O200K_MODELS.test(model)) return 1;
	if (provider !== 'openai' && ownEndpoint) return PROVIDER_MARGINS[provider];
	for (const [family, margin] of FAMILY_MARGINS) if (family.test(model)) return margin;
	if (provider !== 'openai') return PROVIDER_MARGINS[provider];
	return UNKNOWN_TOKENIZER_MARGIN;
}

export interface RequestBudget {
	/** The model's context as planned, in its own tokens. */
	contextTokens: number;
	/** The reply's cap, sent as the request's max output tokens: what the context leaves for it. */
	maxOutputTokens: number;
	/** What the request itself may take, in o200k tokens: what is left once the reply is set aside, less the margin. */
	inputTokens: number;
	margin: number;
}

/** The reply's share of a context (within MIN_OUTPUT_TOKENS and MAX_OUTPUT_TOKENS). */
export function outputReserve(contextTokens: number): number {
	return Math.min(MAX_OUTPUT_TOKENS, Math.max(MIN_OUTPUT_TOKENS, Math.floor(contextTokens * OUTPUT_SHARE)));
}

export function requestBudget(contextTokens: number, margin: number): RequestBudget {
	const maxOutputTokens = outputReserve(contextTokens);
	return { contextTokens, maxOutputTokens, inputTokens: Math.floor((contextTokens - maxOutputTokens) / margin), margin };
}

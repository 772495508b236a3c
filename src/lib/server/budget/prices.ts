/**
 * What a call costs: a model's price from the price table (config/prices.ts, which budget's index
 * re-exports) and the cost in micro-dollars, integers so sums over thousands of calls don't drift.
 */
import { MICROS_PER_DOLLAR, type ModelPrice, type PriceTable } from '../config';

export interface Usage {
	inputTokens: number;
	outputTokens: number;
	/** Part of inputTokens that was read from a prompt cache. */
	cachedInputTokens: number;
	/** Part of inputTokens that was written to a prompt cache (Anthropic). */
	cacheWriteTokens?: number;
}

/**
 * Finds the price for a model id. Exact match first, then the longest table key that prefixes the id
 * (so `claude-sonnet-4-20250514` or `gpt-4o-2024-08-06` find their family). Unknown models cost
 * nothing here, which the caller reports: metering must never be the reason a turn fails.
 */
export function priceFor(table: PriceTable, model: string): ModelPrice | undefined {
	const exact = table[model];
	if (exact) return exact;
	let best: string | undefined;
	for (const key of Object.keys(table)) {
		if (model.startsWith(key) && (!best || key.length > best.length)) best = key;
	}
	return best === undefined ? undefined : table[best];
}

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/** Cost of one call in micro-dollars (integer, rounded up: we never under-count spending). */
export function costMicros(price: ModelPrice | undefined, usage: Usage): number {
	if (!price) return 0;
	// `inputTokens` already holds the cache reads and writes (see LlmUsage): each part is charged once, at its own rate.
	const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
	const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
	const fresh = usage.inputTokens - cached - written;
	const dollars =
		(fresh * price.input +
			cached * (price.cachedInput ?? price.input) +
			written * (price.cacheWrite ?? price.input) +
			usage.outputTokens * price.output) /
		TOKENS_PER_PRICE_UNIT;
	return Math.ceil(dollars * MICROS_PER_DOLLAR - 1e-9);
}

/**
 * The most one call can cost: every input byte a token (a byte-level tokenizer never makes more) at
 * the dearest input rate, and every output token the cap allows. What a reservation holds.
 */
export function worstCaseMicros(price: ModelPrice | undefined, inputBytes: number, maxOutputTokens: number): number {
	if (!price) return 0;
	const inputRate = Math.max(price.input, price.cachedInput ?? 0, price.cacheWrite ?? 0);
	return Math.ceil(((inputBytes * inputRate + maxOutputTokens * price.output) / TOKENS_PER_PRICE_UNIT) * MICROS_PER_DOLLAR);
}

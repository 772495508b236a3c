/**
 * The price table: USD per million tokens. Defaults for common models; a deployment overrides or extends
 * them with a JSON file (KANTERA_PRICES_FILE, read in engine.ts), validated where it enters. It lives in
 * config, not in budget/ (which re-exports it and does the arithmetic), so reading the configuration does
 * not load the budget's ledger, reservations and metrics. Money is kept in micro-dollars (integers) so sums
 * over thousands of calls don't drift.
 */
import * as v from 'valibot';

const ModelPriceSchema = v.object({
	input: v.pipe(v.number(), v.minValue(0)),
	output: v.pipe(v.number(), v.minValue(0)),
	/** Cached input tokens (prompt-cache reads); defaults to `input` when a vendor has no discount. */
	cachedInput: v.optional(v.pipe(v.number(), v.minValue(0))),
	/** Tokens written to a prompt cache (Anthropic charges extra for these). */
	cacheWrite: v.optional(v.pipe(v.number(), v.minValue(0)))
});
export type ModelPrice = v.InferOutput<typeof ModelPriceSchema>;

export const PriceTableSchema = v.record(v.pipe(v.string(), v.minLength(1)), ModelPriceSchema);
export type PriceTable = v.InferOutput<typeof PriceTableSchema>;

/** List prices as published by the vendors at the time of writing; override them in config. */
export const DEFAULT_PRICES: PriceTable = {
	'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
	'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
	'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
	'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
	'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
	'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
	'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
	'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
	'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
	'claude-haiku-4': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
	'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
	// Gemini (prompts up to 200k tokens); cached input is what implicit caching bills, 10% of input on 2.5.
	'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10 },
	'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
	'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
	'gemini-2.0-flash': { input: 0.1, cachedInput: 0.025, output: 0.4 }
};

export const MICROS_PER_DOLLAR = 1_000_000;

export function dollarsToMicros(dollars: number): number {
	return Math.round(dollars * MICROS_PER_DOLLAR);
}

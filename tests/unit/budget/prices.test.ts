import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import { DEFAULT_PRICES, PriceTableSchema, priceFor, costMicros } from '../../../src/lib/server/budget';
import { toLlmUsage } from '../../../src/lib/server/llm/anthropic-decoder';

describe('prices', () => {
	it('finds a model by exact id or by its family prefix, preferring the longest', () => {
		expect(priceFor(DEFAULT_PRICES, 'gpt-4o')).toBe(DEFAULT_PRICES['gpt-4o']);
		expect(priceFor(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18')).toBe(DEFAULT_PRICES['gpt-4o-mini']);
		expect(priceFor(DEFAULT_PRICES, 'claude-sonnet-4-20250514')).toBe(DEFAULT_PRICES['claude-sonnet-4']);
		expect(priceFor(DEFAULT_PRICES, 'llama3:8b')).toBeUndefined();
	});

	it('prices cached input separately and rounds up to whole micro-dollars', () => {
		const price = { input: 2, cachedInput: 0.5, output: 8 };
		// 1,000 fresh input = $0.002; 1,000 cached = $0.0005; 500 output = $0.004.
		expect(costMicros(price, { inputTokens: 2000, cachedInputTokens: 1000, outputTokens: 500 })).toBe(6500);
		expect(costMicros(price, { inputTokens: 1, cachedInputTokens: 0, outputTokens: 0 })).toBe(2);
		expect(costMicros(undefined, { inputTokens: 10_000, cachedInputTokens: 0, outputTokens: 10_000 })).toBe(0);
	});

	it('charges cache writes at their own price', () => {
		const price = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
		// inputTokens counts every input token, the written ones included (as the adapters report them).
		expect(costMicros(price, { inputTokens: 1_000_000, cachedInputTokens: 0, cacheWriteTokens: 1_000_000, outputTokens: 0 })).toBe(
			3_750_000
		);
	});

	it('charges each Anthropic input token once: fresh, cache read and cache write at their own rates', () => {
		const price = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
		// The wire's input_tokens excludes cache reads and writes; the decoder adds them into inputTokens.
		const usage = toLlmUsage({ input: 100_000, cacheRead: 200_000, cacheWrite: 300_000, output: 10_000 });
		expect(usage.inputTokens).toBe(600_000);
		// $0.30 fresh + $0.06 read + $1.125 written + $0.15 output; the bug charged the writes a second time at the input rate (+$0.90).
		expect(costMicros(price, usage)).toBe(1_635_000);
	});

	it('validates a price table from configuration', () => {
		expect(v.safeParse(PriceTableSchema, { m: { input: 1, output: 2 } }).success).toBe(true);
		expect(v.safeParse(PriceTableSchema, { m: { input: -1, output: 2 } }).success).toBe(false);
		expect(v.safeParse(PriceTableSchema, { m: { input: '1', output: 2 } }).success).toBe(false);
	});
});

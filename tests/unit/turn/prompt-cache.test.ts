/**
 * Prompt caching: the tool schemas and the pinned mission are the stable prefix of every call of a session.
 * The mock keeps a prompt cache as the vendors do, so the second call of a session must come back (and be
 * billed) with cached input: Anthropic through its cache_control breakpoints, OpenAI and Gemini through their
 * automatic prefix caches, which only hit when the prefix is byte-identical.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { turnHarness, type TurnHarness, type Vendor } from '../../helpers/turns';
import { sessionSchema } from '../../../src/lib/server/db';
import { costMicros, DEFAULT_PRICES, priceFor } from '../../../src/lib/server/budget';
import { systemTextOf } from '../../mock-llm';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const MODELS: Record<Vendor, string> = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-5', google: 'gemini-2.5-flash' };

describe.each(['anthropic', 'openai', 'google'] as const)('prompt caching on %s', (vendor) => {
	it('bills the second call of a session with cached input', async () => {
		h = await turnHarness(vendor, { KANTERA_LLM_MODEL: MODELS[vendor] });
		const harness = h;
		h.mock.script([{ text: 'The lamp flickers.' }, { text: 'The door creaks.' }]);
		await h.play('I light the lamp');
		await h.play('I open the door');
		const rows = await h.use((s) => s.db.select().from(sessionSchema.ledger).orderBy(asc(sessionSchema.ledger.id)));
		expect(rows).toHaveLength(2);
		const [first, second] = rows;
		if (!first || !second) return;
		expect(first.cachedInputTokens).toBe(0);
		if (vendor === 'anthropic') expect(first.cacheWriteTokens).toBeGreaterThan(0);
		expect(second.cachedInputTokens).toBeGreaterThan(0);
		// Billed at the cache rate: less than the same input all fresh, and exactly the price table's figure.
		const price = priceFor(DEFAULT_PRICES, MODELS[vendor]);
		const usage = {
			inputTokens: second.inputTokens,
			cachedInputTokens: second.cachedInputTokens,
			cacheWriteTokens: second.cacheWriteTokens,
			outputTokens: second.outputTokens
		};
		expect(second.costMicros).toBe(costMicros(price, usage));
		expect(second.costMicros).toBeLessThan(costMicros(price, { ...usage, cachedInputTokens: 0, cacheWriteTokens: 0 }));

		const [a, b] = h.mock.requests;
		if (vendor === 'anthropic') {
			// A breakpoint right after the mission (tools + mission cached for the session), one after the records head.
			const system = b?.anthropic?.system;
			expect(Array.isArray(system) && system.map((block) => [block.text === harness.mission, block.cache_control?.type])).toEqual([
				[true, 'ephemeral'],
				[false, 'ephemeral']
			]);
		} else {
			// The automatic cache needs the same bytes up front: tools first, then the system text opening with the mission.
			expect(JSON.stringify(a?.openai?.tools)).toBe(JSON.stringify(b?.openai?.tools));
			expect(a && systemTextOf(a)?.startsWith(harness.mission)).toBe(true);
			expect(b && systemTextOf(b)?.startsWith(harness.mission)).toBe(true);
		}
	});
});

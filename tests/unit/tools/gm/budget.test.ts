/**
 * The GM tools travel with every LLM call, so what they cost is a budget (issue 26): the `tools` array
 * each adapter puts on the wire, counted with the production o200k counter. `npm run bench:tools` gives
 * the figures per tool; this fails when the total grows past the budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokensO200k } from '../../../../src/lib/server/context-window';
import { collectStream, type LlmToolSpec } from '../../../../src/lib/server/llm';
import { GM_TOOLS } from '../../../../src/lib/server/tools';
import { startMockLlm, type MockLlm } from '../../../mock-llm';
import { providerFor, request } from '../../llm/helpers';

/**
 * A third of what they cost before issue 26 (3,890 on the OpenAI wire), plus adv_stage's `sound` cue
 * (issue 24: 42 tokens, the eleven sound words; main stood at 1,299 of 1,300), plus its `music` cue
 * (issue 24: the action and its field, 1,354 with it; what its words mean is in the mission of a world with music only).
 */
const TOOLS_TOKEN_BUDGET = 1_360;

let mock: MockLlm;
beforeAll(async () => {
	mock = await startMockLlm();
});
afterAll(async () => {
	await mock.close();
});

const specs: LlmToolSpec[] = GM_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));

describe.each(['openai', 'anthropic'] as const)('the GM tools as the %s adapter sends them', (vendor) => {
	it(`cost at most ${TOOLS_TOKEN_BUDGET} o200k tokens`, async () => {
		mock.reset();
		mock.script([{ text: 'ok' }]);
		await collectStream(providerFor(vendor, mock).stream(request({ tools: specs })));
		const sent = mock.requests[0];
		const tools = vendor === 'openai' ? sent?.openai?.tools : sent?.anthropic?.tools;
		expect(tools?.length).toBe(GM_TOOLS.length);
		expect(countTokensO200k(JSON.stringify(tools))).toBeLessThanOrEqual(TOOLS_TOKEN_BUDGET);
	});
});

/** Factories for provider tests: a provider of either kind pointed at a running mock, with fast clocks. */
import {
	createProvider,
	type LlmEvent,
	type LlmProvider,
	type LlmRequest,
	type ProviderName,
	type ProviderSettings
} from '../../../src/lib/server/llm';
import type { MockLlm } from '../../mock-llm';

export const PROVIDERS: ProviderName[] = ['openai', 'anthropic', 'google'];

/** Where each provider finds the mock. */
export function mockBaseUrl(name: ProviderName, mock: MockLlm): string {
	return name === 'openai' ? mock.openaiBaseUrl : name === 'anthropic' ? mock.anthropicBaseUrl : mock.googleBaseUrl;
}
export const TEST_KEY = 'sk-test-0123456789abcdef';

/** Fast enough that fault tests take milliseconds, slow enough that a loaded 2-core CI box doesn't trip them. */
export const FAST_TIMEOUTS = { requestMs: 5_000, idleMs: 5_000, deadlineMs: 20_000 };
export const FAST_RETRY = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 };

export function providerFor(name: ProviderName, mock: MockLlm, overrides: Partial<ProviderSettings> = {}): LlmProvider {
	return createProvider({
		provider: name,
		apiKey: TEST_KEY,
		baseUrl: mockBaseUrl(name, mock),
		timeouts: FAST_TIMEOUTS,
		retry: FAST_RETRY,
		...overrides
	});
}

export function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
	return {
		model: 'test-model',
		system: 'You are the game master.',
		messages: [{ role: 'user', content: 'Hello.' }],
		tools: [],
		...overrides
	};
}

export async function drain(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
	const events: LlmEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

/** Runs a stream to its end and returns what it threw (failing the test if it threw nothing). */
export async function failureOf(stream: AsyncIterable<LlmEvent>, seen: LlmEvent[] = []): Promise<unknown> {
	try {
		for await (const event of stream) seen.push(event);
	} catch (error) {
		return error;
	}
	throw new Error(`expected the stream to fail, it ended normally after ${seen.length} events`);
}

export const DICE_TOOL = {
	name: 'roll_dice',
	description: 'Roll dice in standard notation.',
	parameters: { type: 'object', properties: { notation: { type: 'string' } }, required: ['notation'], additionalProperties: false }
};

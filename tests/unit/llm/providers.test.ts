/**
 * Both adapters through the real SDKs against the mock LLM server: streaming, tool calls, the wire shape of
 * tool results, usage, retries, timeouts and abort.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmAbortedError, LlmError, LlmTimeoutError, type LlmEvent, type LlmMessage } from '../../../src/lib/server/llm';
import { startMockLlm, systemTextOf, type MockLlm } from '../../mock-llm';
import { DICE_TOOL, drain, failureOf, PROVIDERS, providerFor, request, TEST_KEY } from './helpers';

// A fresh server per test: a request that an earlier test timed out may still arrive late, and must not eat
// the next test's script.
let mock: MockLlm;
beforeEach(async () => {
	mock = await startMockLlm();
});
afterEach(async () => {
	await mock.close();
});

const textDeltas = (events: LlmEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : []));
const toolCalls = (events: LlmEvent[]) =>
	events.flatMap((e) => (e.type === 'tool_call' ? [{ id: e.id, name: e.name, arguments: e.arguments }] : []));
const types = (events: LlmEvent[]) => events.map((e) => e.type);

function expectLlmError(error: unknown): LlmError {
	expect(error).toBeInstanceOf(LlmError);
	if (!(error instanceof LlmError)) throw new Error('not an LlmError');
	return error;
}

describe.each(PROVIDERS)('%s provider against the mock', (name) => {
	it('streams text deltas in order, then usage, then finish', async () => {
		const pieces = ['夜の', '門番は', ' lantern', ' in hand', '.'];
		mock.script([{ text: pieces }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(textDeltas(events)).toEqual(pieces);
		expect(types(events).slice(-2)).toEqual(['usage', 'finish']);
		expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
		expect(mock.requests).toHaveLength(1);
		expect(mock.requests[0]?.stream).toBe(true);
	});

	it('sends the system text verbatim on every request', async () => {
		const mission = 'MISSION: stay in character.\n\n  Keep the world consistent.  \n# 日本語で\n';
		mock.script([{ text: 'one' }, { text: 'two' }]);
		const provider = providerFor(name, mock);
		await drain(provider.stream(request({ system: mission })));
		await drain(
			provider.stream(
				request({
					system: mission,
					messages: [
						{ role: 'user', content: 'a' },
						{ role: 'assistant', content: 'one' },
						{ role: 'user', content: 'b' }
					]
				})
			)
		);
		expect(mock.requests.map((r) => systemTextOf(r))).toEqual([mission, mission]);
	});

	it('assembles parallel tool calls from argument fragments', async () => {
		const first = { notation: '2d6+1', reason: 'attack roll against the gate keeper' };
		const second = { notation: '1d20', reason: 'perception' };
		mock.script([
			{
				text: 'Rolling. ',
				toolCalls: [
					{ id: 'call_a', name: 'roll_dice', arguments: first, fragments: 5 },
					{ id: 'call_b', name: 'roll_dice', arguments: second, fragments: 4 }
				],
				interleaveToolCalls: true
			}
		]);
		const events = await drain(providerFor(name, mock).stream(request({ tools: [DICE_TOOL] })));
		expect(toolCalls(events)).toEqual([
			{ id: 'call_a', name: 'roll_dice', arguments: JSON.stringify(first) },
			{ id: 'call_b', name: 'roll_dice', arguments: JSON.stringify(second) }
		]);
		expect(textDeltas(events).join('')).toBe('Rolling. ');
		expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
		// Tool calls come before usage and finish, after the text.
		expect(types(events).slice(-4)).toEqual(['tool_call', 'tool_call', 'usage', 'finish']);
	});

	it('passes malformed tool arguments through raw', async () => {
		const broken = '{"notation": "1d20", "reason": ';
		mock.script([{ toolCalls: [{ id: 'call_x', name: 'roll_dice', arguments: broken }] }]);
		const events = await drain(providerFor(name, mock).stream(request({ tools: [DICE_TOOL] })));
		expect(toolCalls(events)).toEqual([{ id: 'call_x', name: 'roll_dice', arguments: broken }]);
	});

	it('sends tools, assistant tool calls and tool results in the vendor wire shape', async () => {
		mock.script([{ text: 'The gate opens.' }]);
		const messages: LlmMessage[] = [
			{ role: 'user', content: 'I try the gate.' },
			{
				role: 'assistant',
				content: 'Let me check.',
				toolCalls: [
					{ id: 'call_1', name: 'roll_dice', arguments: '{"notation":"1d20"}' },
					{ id: 'call_2', name: 'get_state', arguments: '{}' }
				]
			},
			{ role: 'tool', toolCallId: 'call_1', name: 'roll_dice', content: '{"total":17}' },
			{ role: 'tool', toolCallId: 'call_2', name: 'get_state', content: 'state unavailable', isError: true }
		];
		const events = await drain(providerFor(name, mock).stream(request({ messages, tools: [DICE_TOOL], maxOutputTokens: 321 })));
		expect(textDeltas(events).join('')).toBe('The gate opens.');
		const sent = mock.requests[0];
		if (name !== 'anthropic') {
			// Gemini's compatible endpoint is reached at its own path, with the OpenAI wire.
			expect(sent?.path).toBe(name === 'google' ? '/v1beta/openai/chat/completions' : '/v1/chat/completions');
			const body = sent?.openai;
			expect(body?.tools).toEqual([{ type: 'function', function: DICE_TOOL }]);
			expect(body?.max_tokens).toBe(321);
			expect(body?.stream_options).toEqual({ include_usage: true });
			expect(body?.messages.slice(1)).toEqual([
				{ role: 'user', content: 'I try the gate.' },
				{
					role: 'assistant',
					content: 'Let me check.',
					tool_calls: [
						{ id: 'call_1', type: 'function', function: { name: 'roll_dice', arguments: '{"notation":"1d20"}' } },
						{ id: 'call_2', type: 'function', function: { name: 'get_state', arguments: '{}' } }
					]
				},
				{ role: 'tool', tool_call_id: 'call_1', content: '{"total":17}' },
				{ role: 'tool', tool_call_id: 'call_2', content: 'state unavailable' }
			]);
		} else {
			const body = sent?.anthropic;
			expect(body?.tools).toEqual([{ name: 'roll_dice', description: DICE_TOOL.description, input_schema: DICE_TOOL.parameters }]);
			expect(body?.max_tokens).toBe(321);
			expect(body?.messages).toEqual([
				{ role: 'user', content: [{ type: 'text', text: 'I try the gate.' }] },
				{
					role: 'assistant',
					content: [
						{ type: 'text', text: 'Let me check.' },
						{ type: 'tool_use', id: 'call_1', name: 'roll_dice', input: { notation: '1d20' } },
						{ type: 'tool_use', id: 'call_2', name: 'get_state', input: {} }
					]
				},
				// All results of one round in ONE user turn, errors flagged.
				{
					role: 'user',
					content: [
						{ type: 'tool_result', tool_use_id: 'call_1', content: '{"total":17}' },
						{ type: 'tool_result', tool_use_id: 'call_2', content: 'state unavailable', is_error: true }
					]
				}
			]);
		}
	});

	it('maps usage, including cached input tokens', async () => {
		mock.script([
			{
				text: 'ok',
				usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, cacheWriteTokens: name === 'anthropic' ? 150 : 0 }
			}
		]);
		const events = await drain(providerFor(name, mock).stream(request()));
		const usage = events.find((e) => e.type === 'usage');
		if (name !== 'anthropic') expect(usage).toEqual({ type: 'usage', inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000 });
		else expect(usage).toEqual({ type: 'usage', inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, cacheWriteTokens: 150 });
	});

	it.runIf(name === 'google')('counts Gemini thinking tokens as output when completion_tokens leaves them out', async () => {
		mock.script([{ text: 'ok', usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, thoughtTokens: 300 } }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(events.find((e) => e.type === 'usage')).toEqual({
			type: 'usage',
			inputTokens: 1200,
			outputTokens: 380,
			cachedInputTokens: 1000,
			reasoningTokens: 300
		});
	});

	it.runIf(name === 'openai')('tells the reasoning tokens in completion_tokens apart', async () => {
		mock.script([{ text: 'ok', usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 0, thoughtTokens: 300 } }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(events.find((e) => e.type === 'usage')).toEqual({
			type: 'usage',
			inputTokens: 1200,
			outputTokens: 380,
			cachedInputTokens: 0,
			reasoningTokens: 300
		});
	});

	it('retries a 500 twice, then succeeds', async () => {
		mock.script([{ fault: { kind: 'status', status: 500 }, times: 2 }, { text: 'recovered' }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(textDeltas(events).join('')).toBe('recovered');
		expect(mock.requests).toHaveLength(3);
	});

	it('retries a 429', async () => {
		mock.script([{ fault: { kind: 'status', status: 429 } }, { text: 'after the limit' }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(textDeltas(events).join('')).toBe('after the limit');
		expect(mock.requests).toHaveLength(2);
	});

	it('gives up after maxRetries with the last error', async () => {
		mock.script([{ fault: { kind: 'status', status: 503 }, times: 5 }]);
		const error = expectLlmError(
			await failureOf(providerFor(name, mock, { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } }).stream(request()))
		);
		expect(error.kind).toBe('server');
		expect(error.status).toBe(503);
		expect(mock.requests).toHaveLength(3);
	});

	it('does not retry a 401 and reports an auth error without the key', async () => {
		mock.script([{ fault: { kind: 'status', status: 401 } }, { text: 'never served' }]);
		const error = expectLlmError(await failureOf(providerFor(name, mock).stream(request())));
		expect(error.kind).toBe('auth');
		expect(error.retryable).toBe(false);
		expect(error.message).not.toContain(TEST_KEY);
		expect(mock.requests).toHaveLength(1);
		expect(mock.pending()).toBe(1);
	});

	it('does not retry a 400 the server refused', async () => {
		mock.script([{ fault: { kind: 'status', status: 400, message: 'bad tool schema' } }]);
		const error = expectLlmError(await failureOf(providerFor(name, mock).stream(request())));
		expect(error.kind).toBe('bad_request');
		expect(error.message).toContain('bad tool schema');
		expect(mock.requests).toHaveLength(1);
	});

	it('ends a request the server never answers with a request timeout, after retrying it', async () => {
		mock.script([{ fault: { kind: 'hang' }, times: 2 }]);
		const provider = providerFor(name, mock, {
			timeouts: { requestMs: 1_000, idleMs: 5_000, deadlineMs: 20_000 },
			retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 }
		});
		const error = await failureOf(provider.stream(request()));
		expect(error).toBeInstanceOf(LlmTimeoutError);
		expect(error instanceof LlmTimeoutError && error.phase).toBe('request');
		expect(mock.requests).toHaveLength(2);
	});

	it('ends a stream that never finishes at the deadline, keeping what it had yielded', async () => {
		mock.script([{ fault: { kind: 'endless', send: 'delta', intervalMs: 5 } }]);
		const seen: LlmEvent[] = [];
		const provider = providerFor(name, mock, { timeouts: { requestMs: 5_000, idleMs: 5_000, deadlineMs: 1_500 } });
		const error = await failureOf(provider.stream(request()), seen);
		expect(error).toBeInstanceOf(LlmTimeoutError);
		expect(error instanceof LlmTimeoutError && error.phase).toBe('deadline');
		expect(expectLlmError(error).retryable).toBe(false);
		expect(textDeltas(seen).length).toBeGreaterThan(0);
		expect(mock.requests).toHaveLength(1);
	});

	it('ends a stream that only sends keep-alives with an idle timeout, retried while nothing was yielded', async () => {
		mock.script([{ fault: { kind: 'endless', send: 'keepalive', intervalMs: 5 }, times: 3 }]);
		const provider = providerFor(name, mock, { timeouts: { requestMs: 5_000, idleMs: 500, deadlineMs: 20_000 } });
		const error = await failureOf(provider.stream(request()));
		// Keep-alives are not progress: OpenAI's are SSE comments, Anthropic's are ping events the SDK drops.
		expect(error instanceof LlmTimeoutError && error.phase).toBe('idle');
		expect(mock.requests).toHaveLength(3);
	});

	it('aborts a running stream promptly with LlmAbortedError', async () => {
		mock.script([{ fault: { kind: 'endless', send: 'delta', intervalMs: 5 } }]);
		const controller = new AbortController();
		// Clocks far beyond the test timeout: only the abort can end this stream.
		const provider = providerFor(name, mock, { timeouts: { requestMs: 60_000, idleMs: 60_000, deadlineMs: 120_000 } });
		const seen: LlmEvent[] = [];
		let afterAbort = 0;
		const error = await failureOf(
			(async function* () {
				for await (const event of provider.stream(request({ signal: controller.signal }))) {
					if (controller.signal.aborted) afterAbort += 1;
					yield event;
					if (textDeltas(seen).length >= 2) controller.abort();
				}
			})(),
			seen
		);
		expect(error).toBeInstanceOf(LlmAbortedError);
		expect(expectLlmError(error).kind).toBe('aborted');
		expect(afterAbort).toBe(0);
		expect(mock.requests).toHaveLength(1);
		// The connection is closed, not left streaming into the void.
		await waitFor(() => mock.openResponses() === 0);
	});

	it('closes the connection when the caller stops reading early', async () => {
		mock.script([{ fault: { kind: 'endless', send: 'delta', intervalMs: 5 } }]);
		const provider = providerFor(name, mock, { timeouts: { requestMs: 60_000, idleMs: 60_000, deadlineMs: 120_000 } });
		let deltas = 0;
		for await (const event of provider.stream(request())) {
			if (event.type === 'text') deltas += 1;
			if (deltas === 3) break;
		}
		expect(deltas).toBe(3);
		await waitFor(() => mock.openResponses() === 0);
	});

	it('aborts while waiting for the response headers', async () => {
		mock.script([{ fault: { kind: 'hang' } }]);
		const controller = new AbortController();
		const provider = providerFor(name, mock, { timeouts: { requestMs: 60_000, idleMs: 60_000, deadlineMs: 120_000 } });
		const stream = provider.stream(request({ signal: controller.signal }));
		const pending = failureOf(stream);
		await waitFor(() => mock.requests.length === 1);
		controller.abort();
		expect(await pending).toBeInstanceOf(LlmAbortedError);
	});

	it('aborts during the backoff between retries', async () => {
		mock.script([{ fault: { kind: 'status', status: 500 }, times: 5 }]);
		const controller = new AbortController();
		const provider = providerFor(name, mock, {
			retry: { maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
			timeouts: { requestMs: 5_000, idleMs: 5_000, deadlineMs: 600_000 }
		});
		const pending = failureOf(provider.stream(request({ signal: controller.signal })));
		await waitFor(() => mock.requests.length === 1);
		controller.abort();
		expect(await pending).toBeInstanceOf(LlmAbortedError);
		expect(mock.requests).toHaveLength(1);
	});

	it('does not even send a request whose signal is already aborted', async () => {
		const controller = new AbortController();
		controller.abort();
		expect(await failureOf(providerFor(name, mock).stream(request({ signal: controller.signal })))).toBeInstanceOf(LlmAbortedError);
		expect(mock.requests).toHaveLength(0);
	});

	it('reports a connection closed mid-answer as a network error and does not retry it', async () => {
		mock.script([
			{ text: ['one ', 'two ', 'three ', 'four'], fault: { kind: 'close-mid-stream', afterFrames: 4 } },
			{ text: 'never served' }
		]);
		const seen: LlmEvent[] = [];
		const error = expectLlmError(await failureOf(providerFor(name, mock).stream(request()), seen));
		expect(error.kind).toBe('network');
		expect(textDeltas(seen).length).toBeGreaterThan(0);
		// Text already reached the caller: a retry would tell it twice.
		expect(mock.requests).toHaveLength(1);
	});

	it('retries a connection closed before anything was yielded', async () => {
		mock.script([{ text: 'lost', fault: { kind: 'close-mid-stream', afterFrames: 1 } }, { text: 'second try' }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(textDeltas(events).join('')).toBe('second try');
		expect(mock.requests).toHaveLength(2);
	});

	it('reports a stream that ends cleanly but unfinished', async () => {
		mock.script([{ text: ['a', 'b', 'c', 'd'], fault: { kind: 'end-early', afterFrames: 4 } }]);
		const error = expectLlmError(await failureOf(providerFor(name, mock).stream(request())));
		expect(error.message).toMatch(/ended before the model finished/);
		expect(mock.requests).toHaveLength(1);
	});

	it('maps a length stop', async () => {
		mock.script([{ text: 'cut', finish: 'length' }]);
		const events = await drain(providerFor(name, mock).stream(request()));
		expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
	});

	it('plays a tool round trip with the tool-roundtrip scenario', async () => {
		const { SCENARIOS } = await import('../../mock-llm');
		mock.setHandler(SCENARIOS['tool-roundtrip']);
		try {
			const provider = providerFor(name, mock);
			const first = await drain(provider.stream(request({ tools: [DICE_TOOL], messages: [{ role: 'user', content: 'I jump.' }] })));
			const [call] = toolCalls(first);
			expect(call?.name).toBe('roll_dice');
			expect(JSON.parse(call?.arguments ?? '')).toEqual({ notation: '1d20' });
			if (!call) return;
			const second = await drain(
				provider.stream(
					request({
						tools: [DICE_TOOL],
						messages: [
							{ role: 'user', content: 'I jump.' },
							{ role: 'assistant', content: textDeltas(first).join(''), toolCalls: [call] },
							{ role: 'tool', toolCallId: call.id, name: call.name, content: '{"total":12}' }
						]
					})
				)
			);
			expect(textDeltas(second).join('')).toBe('The dice have spoken: {"total":12}.');
		} finally {
			mock.setHandler(undefined);
		}
	});
});

async function waitFor(condition: () => boolean): Promise<void> {
	for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
	if (!condition()) throw new Error('condition never became true');
}

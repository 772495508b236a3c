/** The mock LLM server itself: non-streaming answers, request checks, auth, scenarios and the standalone CLI. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { collectStream, createProvider, LlmError } from '../../../src/lib/server/llm';
import { apiKeyOf, startMockLlm, type MockLlm } from '../../mock-llm';
import { failureOf, providerFor, request, TEST_KEY } from './helpers';

let mock: MockLlm;
beforeEach(async () => {
	mock = await startMockLlm();
});
afterEach(async () => {
	await mock.close();
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body)
	});
	return { status: response.status, json: await response.json() };
}

const OpenAiCompletion = v.object({
	object: v.literal('chat.completion'),
	choices: v.tuple([
		v.object({
			message: v.object({
				role: v.literal('assistant'),
				content: v.nullable(v.string()),
				tool_calls: v.optional(
					v.array(
						v.object({ id: v.string(), type: v.literal('function'), function: v.object({ name: v.string(), arguments: v.string() }) })
					)
				)
			}),
			finish_reason: v.string()
		})
	]),
	usage: v.object({
		prompt_tokens: v.number(),
		completion_tokens: v.number(),
		prompt_tokens_details: v.object({ cached_tokens: v.number() })
	})
});

const AnthropicMessage = v.object({
	type: v.literal('message'),
	role: v.literal('assistant'),
	content: v.array(
		v.union([
			v.object({ type: v.literal('text'), text: v.string() }),
			v.object({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.record(v.string(), v.unknown()) })
		])
	),
	stop_reason: v.string(),
	usage: v.object({
		input_tokens: v.number(),
		output_tokens: v.number(),
		cache_read_input_tokens: v.number(),
		cache_creation_input_tokens: v.number()
	})
});

describe('mock LLM server', () => {
	it('answers non-streaming OpenAI requests with a chat.completion', async () => {
		mock.script([
			{
				text: 'Hi there',
				toolCalls: [{ id: 'call_9', name: 'roll_dice', arguments: { notation: '1d6' } }],
				usage: { inputTokens: 30, outputTokens: 7, cachedInputTokens: 10 }
			}
		]);
		const { status, json } = await post(`${mock.openaiBaseUrl}/chat/completions`, {
			model: 'm',
			messages: [{ role: 'user', content: 'hi' }]
		});
		expect(status).toBe(200);
		const completion = v.parse(OpenAiCompletion, json);
		expect(completion.choices[0].message.content).toBe('Hi there');
		expect(completion.choices[0].message.tool_calls).toEqual([
			{ id: 'call_9', type: 'function', function: { name: 'roll_dice', arguments: '{"notation":"1d6"}' } }
		]);
		expect(completion.choices[0].finish_reason).toBe('tool_calls');
		expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 10 } });
		expect(mock.requests[0]?.stream).toBe(false);
	});

	it('answers non-streaming Anthropic requests with a message, cache counts apart', async () => {
		mock.script([
			{
				text: 'Hi',
				toolCalls: [{ id: 'toolu_9', name: 'get_state', arguments: {} }],
				usage: { inputTokens: 100, outputTokens: 5, cachedInputTokens: 60, cacheWriteTokens: 10 }
			}
		]);
		const { status, json } = await post(`${mock.anthropicBaseUrl}/v1/messages`, {
			model: 'm',
			max_tokens: 10,
			messages: [{ role: 'user', content: 'hi' }]
		});
		expect(status).toBe(200);
		const message = v.parse(AnthropicMessage, json);
		expect(message.content).toEqual([
			{ type: 'text', text: 'Hi' },
			{ type: 'tool_use', id: 'toolu_9', name: 'get_state', input: {} }
		]);
		expect(message.stop_reason).toBe('tool_use');
		expect(message.usage).toEqual({ input_tokens: 30, output_tokens: 5, cache_read_input_tokens: 60, cache_creation_input_tokens: 10 });
	});

	it('rejects a conversation the real API would reject, and the adapter does not retry it', async () => {
		// A tool result with no tool call before it.
		const { status, json } = await post(`${mock.anthropicBaseUrl}/v1/messages`, {
			model: 'm',
			max_tokens: 10,
			messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }]
		});
		expect(status).toBe(400);
		expect(JSON.stringify(json)).toMatch(/unexpected tool_use_id nope/);
		const error = await failureOf(
			providerFor('openai', mock).stream(request({ messages: [{ role: 'tool', toolCallId: 'nope', name: 'x', content: 'x' }] }))
		);
		expect(error instanceof LlmError && error.kind).toBe('bad_request');
		expect(mock.requests).toHaveLength(2);
	});

	it('says so when nothing was scripted', async () => {
		const error = await failureOf(providerFor('anthropic', mock).stream(request()));
		expect(String(error)).toMatch(/nothing scripted for request #1/);
	});

	it('checks the API key when given one', async () => {
		const guarded = await startMockLlm({ apiKey: TEST_KEY, handler: () => ({ text: 'ok' }) });
		try {
			for (const name of ['openai', 'anthropic'] as const) {
				const reply = await collectStream(providerFor(name, guarded).stream(request()));
				expect(reply.text).toBe('ok');
				const error = await failureOf(providerFor(name, guarded, { apiKey: 'wrong' }).stream(request()));
				expect(error instanceof LlmError && error.kind).toBe('auth');
			}
			expect(guarded.requests.map(apiKeyOf)).toEqual([TEST_KEY, 'wrong', TEST_KEY, 'wrong']);
		} finally {
			await guarded.close();
		}
	});
});

describe('mock LLM CLI', () => {
	it('starts on a free port, serves the echo scenario to a real provider, and stops on SIGTERM', async () => {
		const cli = path.resolve(import.meta.dirname, '../../mock-llm/cli.ts');
		const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--scenario', 'echo'], {
			stdio: ['ignore', 'pipe', 'inherit']
		});
		try {
			const lines = createInterface({ input: child.stdout });
			const [line] = await once(lines, 'line');
			const url = /listening on (http:\/\/\S+)/.exec(String(line))?.[1];
			expect(url).toBeDefined();
			const provider = createProvider({ provider: 'openai', baseUrl: `${url}/v1`, retry: { maxRetries: 0 } });
			const reply = await collectStream(provider.stream(request({ messages: [{ role: 'user', content: '門を叩く' }] })));
			expect(reply.text).toBe('You said: 門を叩く');
			child.kill('SIGTERM');
			const [code] = await once(child, 'exit');
			expect(code).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});
});

/**
 * The stream decoders on their own, fed the quirks of OpenAI-compatible servers and sloppy streams that the
 * mock's well-formed wire doesn't produce.
 */
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../../src/lib/server/llm/anthropic-decoder';
import { LlmError } from '../../../src/lib/server/llm';
import { OpenAiStreamDecoder } from '../../../src/lib/server/llm/openai-decoder';

type OpenAiChunk = Parameters<OpenAiStreamDecoder['push']>[0];
type AnthropicEvent = Parameters<AnthropicStreamDecoder['push']>[0];
type ToolFragment = { index: number; id?: string; function?: { name?: string; arguments?: string } };

function chunk(
	delta: { content?: string; tool_calls?: ToolFragment[] },
	finish: 'stop' | 'tool_calls' | 'length' | null = null
): OpenAiChunk {
	return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] };
}

function runOpenAi(chunks: OpenAiChunk[]) {
	const decoder = new OpenAiStreamDecoder();
	return [...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()];
}

describe('OpenAI stream decoder', () => {
	it('keeps one call when a server repeats the id on every fragment', () => {
		const events = runOpenAi([
			chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'roll_dice', arguments: '{"nota' } }] }),
			chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { arguments: 'tion":"1d6"}' } }] }),
			chunk({}, 'tool_calls')
		]);
		expect(events.filter((e) => e.type === 'tool_call')).toEqual([
			{ type: 'tool_call', id: 'call_1', name: 'roll_dice', arguments: '{"notation":"1d6"}' }
		]);
	});

	it('splits two calls that a server sent under the same index', () => {
		const events = runOpenAi([
			chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_state', arguments: '{}' } }] }),
			chunk({ tool_calls: [{ index: 0, id: 'call_2', function: { name: 'roll_dice', arguments: '{"notation":"1d4"}' } }] }),
			chunk({}, 'tool_calls')
		]);
		expect(events.filter((e) => e.type === 'tool_call').map((e) => e.id)).toEqual(['call_1', 'call_2']);
	});

	it('reads `stop` after tool calls as tool_calls, and empty arguments as {}', () => {
		const events = runOpenAi([
			chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_state', arguments: '' } }] }),
			chunk({}, 'stop')
		]);
		expect(events).toEqual([
			{ type: 'tool_call', id: 'call_1', name: 'get_state', arguments: '{}' },
			{ type: 'finish', reason: 'tool_calls' }
		]);
	});

	it('makes up unique ids when a server sends none', () => {
		const events = runOpenAi([
			chunk({
				tool_calls: [
					{ index: 0, function: { name: 'a', arguments: '{}' } },
					{ index: 1, function: { name: 'b', arguments: '{}' } }
				]
			}),
			chunk({}, 'tool_calls')
		]);
		const ids = events.flatMap((e) => (e.type === 'tool_call' ? [e.id] : []));
		expect(ids).toHaveLength(2);
		expect(new Set(ids).size).toBe(2);
		for (const id of ids) expect(id).toMatch(/^call_/);
	});

	it('takes usage from the finishing chunk when a server puts it there', () => {
		const decoder = new OpenAiStreamDecoder();
		decoder.push({ ...chunk({ content: 'hi' }, 'stop'), usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
		expect(decoder.end()).toEqual([
			{ type: 'usage', inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 },
			{ type: 'finish', reason: 'stop' }
		]);
	});

	it('throws a retryable network error for a stream without a finish reason', () => {
		const decoder = new OpenAiStreamDecoder();
		decoder.push(chunk({ content: 'half' }));
		expect(() => decoder.end()).toThrow(LlmError);
		try {
			decoder.end();
		} catch (error) {
			expect(error instanceof LlmError && [error.kind, error.retryable]).toEqual(['network', true]);
		}
	});
});

function runAnthropic(events: AnthropicEvent[]) {
	const decoder = new AnthropicStreamDecoder();
	return [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
}

const start: AnthropicEvent = {
	type: 'message_start',
	message: {
		id: 'msg',
		type: 'message',
		role: 'assistant',
		model: 'm',
		content: [],
		stop_reason: null,
		stop_sequence: null,
		stop_details: null,
		container: null,
		diagnostics: null,
		usage: {
			input_tokens: 50,
			output_tokens: 1,
			cache_creation_input_tokens: 20,
			cache_read_input_tokens: 30,
			cache_creation: null,
			inference_geo: null,
			server_tool_use: null,
			service_tier: null,
			output_tokens_details: null,
			speed: null
		}
	}
};

describe('Anthropic stream decoder', () => {
	it('uses the start input of a tool call that streams no JSON', () => {
		const events = runAnthropic([
			start,
			{
				type: 'content_block_start',
				index: 0,
				content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_state', input: {}, caller: { type: 'direct' } }
			},
			{ type: 'content_block_stop', index: 0 },
			{
				type: 'message_delta',
				delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null, container: null },
				usage: {
					output_tokens: 9,
					input_tokens: null,
					cache_creation_input_tokens: null,
					cache_read_input_tokens: null,
					server_tool_use: null,
					output_tokens_details: null
				}
			},
			{ type: 'message_stop' }
		]);
		expect(events).toEqual([
			{ type: 'tool_call', id: 'toolu_1', name: 'get_state', arguments: '{}' },
			{ type: 'usage', inputTokens: 100, outputTokens: 9, cachedInputTokens: 30, cacheWriteTokens: 20 },
			{ type: 'finish', reason: 'tool_calls' }
		]);
	});

	it('rejects JSON deltas for a block that is not a tool call', () => {
		const decoder = new AnthropicStreamDecoder();
		decoder.push(start);
		decoder.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } });
		expect(() => decoder.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{' } })).toThrow(
			/not a tool call/
		);
	});

	it('throws a network error for a stream without a stop reason', () => {
		const decoder = new AnthropicStreamDecoder();
		decoder.push(start);
		expect(() => decoder.end()).toThrow(/ended before the model finished/);
	});
});

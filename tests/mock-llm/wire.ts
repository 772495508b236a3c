/**
 * Renders a scripted reply in the vendors' real wire formats: OpenAI Chat Completions (SSE chunks ending in
 * `data: [DONE]`, or one JSON object) and Anthropic Messages (named SSE events, or one JSON object).
 */
import type { ScriptedFinish } from './types';

export interface WireToolCall {
	id: string;
	name: string;
	arguments: string;
	fragments: string[];
}

/** A scripted reply with every default filled in. */
export interface WireReply {
	model: string;
	text: string[];
	toolCalls: WireToolCall[];
	interleaveToolCalls: boolean;
	/**
	 * `thoughtTokens` is Gemini's thinking (in total_tokens only); `reasoningTokens` OpenAI's reasoning (in
	 * completion_tokens, and told apart in completion_tokens_details).
	 */
	usage: {
		inputTokens: number;
		outputTokens: number;
		cachedInputTokens: number;
		cacheWriteTokens: number;
		thoughtTokens: number;
		reasoningTokens: number;
	};
	finish: ScriptedFinish;
}

const CREATED_AT = 1_700_000_000;

// ---------- OpenAI ----------

const OPENAI_FINISH: Record<ScriptedFinish, string> = {
	stop: 'stop',
	tool_calls: 'tool_calls',
	length: 'length',
	content_filter: 'content_filter'
};

function openAiChunk(reply: WireReply, id: string, delta: Record<string, unknown>, finish: string | null = null): string {
	const chunk = {
		id,
		object: 'chat.completion.chunk',
		created: CREATED_AT,
		model: reply.model,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }]
	};
	return `data: ${JSON.stringify(chunk)}\n\n`;
}

function openAiUsage(reply: WireReply): Record<string, unknown> {
	return {
		prompt_tokens: reply.usage.inputTokens,
		completion_tokens: reply.usage.outputTokens + reply.usage.reasoningTokens,
		total_tokens: reply.usage.inputTokens + reply.usage.outputTokens + reply.usage.reasoningTokens + reply.usage.thoughtTokens,
		prompt_tokens_details: { cached_tokens: reply.usage.cachedInputTokens },
		...(reply.usage.reasoningTokens > 0 ? { completion_tokens_details: { reasoning_tokens: reply.usage.reasoningTokens } } : {})
	};
}

export function openAiStreamFrames(reply: WireReply, id: string, includeUsage: boolean): string[] {
	const frames = [openAiChunk(reply, id, { role: 'assistant', content: '' })];
	for (const piece of reply.text) frames.push(openAiChunk(reply, id, { content: piece }));
	const header = (call: WireToolCall, index: number) =>
		openAiChunk(reply, id, { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
	const fragment = (index: number, text: string) => openAiChunk(reply, id, { tool_calls: [{ index, function: { arguments: text } }] });
	if (reply.interleaveToolCalls) {
		reply.toolCalls.forEach((call, index) => frames.push(header(call, index)));
		const longest = Math.max(0, ...reply.toolCalls.map((call) => call.fragments.length));
		for (let f = 0; f < longest; f++) {
			reply.toolCalls.forEach((call, index) => {
				const text = call.fragments[f];
				if (text !== undefined) frames.push(fragment(index, text));
			});
		}
	} else {
		reply.toolCalls.forEach((call, index) => {
			frames.push(header(call, index));
			for (const text of call.fragments) frames.push(fragment(index, text));
		});
	}
	frames.push(openAiChunk(reply, id, {}, OPENAI_FINISH[reply.finish]));
	if (includeUsage)
		frames.push(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED_AT, model: reply.model, choices: [], usage: openAiUsage(reply) })}\n\n`
		);
	frames.push('data: [DONE]\n\n');
	return frames;
}

export function openAiEndlessOpening(reply: WireReply, id: string): string[] {
	return [openAiChunk(reply, id, { role: 'assistant', content: '' })];
}

/** What an endless OpenAI stream repeats: a one-character delta, or an SSE comment as keep-alive. */
export function openAiEndlessFrame(reply: WireReply, id: string, send: 'delta' | 'keepalive'): string {
	return send === 'delta' ? openAiChunk(reply, id, { content: '.' }) : ': keep-alive\n\n';
}

export function openAiJson(reply: WireReply, id: string): Record<string, unknown> {
	const text = reply.text.join('');
	const message: Record<string, unknown> = {
		role: 'assistant',
		content: text === '' && reply.toolCalls.length > 0 ? null : text,
		refusal: null
	};
	if (reply.toolCalls.length > 0)
		message.tool_calls = reply.toolCalls.map((call) => ({
			id: call.id,
			type: 'function',
			function: { name: call.name, arguments: call.arguments }
		}));
	return {
		id,
		object: 'chat.completion',
		created: CREATED_AT,
		model: reply.model,
		choices: [{ index: 0, message, logprobs: null, finish_reason: OPENAI_FINISH[reply.finish] }],
		usage: openAiUsage(reply)
	};
}

export function openAiErrorBody(status: number, message: string): Record<string, unknown> {
	const type =
		status === 401
			? 'invalid_request_error'
			: status === 429
				? 'rate_limit_exceeded'
				: status >= 500
					? 'server_error'
					: 'invalid_request_error';
	return { error: { message, type, param: null, code: status === 401 ? 'invalid_api_key' : null } };
}

// ---------- Anthropic ----------

const ANTHROPIC_STOP: Record<ScriptedFinish, string> = {
	stop: 'end_turn',
	tool_calls: 'tool_use',
	length: 'max_tokens',
	content_filter: 'refusal'
};

function anthropicEvent(type: string, data: Record<string, unknown>): string {
	return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** On the Anthropic wire `input_tokens` excludes what was read from or written to the cache. */
function anthropicUsage(reply: WireReply): Record<string, number> {
	const { inputTokens, cachedInputTokens, cacheWriteTokens } = reply.usage;
	return {
		input_tokens: Math.max(0, inputTokens - cachedInputTokens - cacheWriteTokens),
		cache_read_input_tokens: cachedInputTokens,
		cache_creation_input_tokens: cacheWriteTokens,
		output_tokens: reply.usage.outputTokens
	};
}

function anthropicMessageStart(reply: WireReply, id: string): string {
	const usage = { ...anthropicUsage(reply), output_tokens: 1 };
	return anthropicEvent('message_start', {
		message: { id, type: 'message', role: 'assistant', model: reply.model, content: [], stop_reason: null, stop_sequence: null, usage }
	});
}

export function anthropicStreamFrames(reply: WireReply, id: string): string[] {
	const frames = [anthropicMessageStart(reply, id), anthropicEvent('ping', {})];
	let index = 0;
	if (reply.text.length > 0) {
		frames.push(anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }));
		for (const piece of reply.text)
			frames.push(anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
		frames.push(anthropicEvent('content_block_stop', { index }));
		index += 1;
	}
	for (const call of reply.toolCalls) {
		frames.push(
			anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } })
		);
		for (const text of call.fragments)
			frames.push(anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: text } }));
		frames.push(anthropicEvent('content_block_stop', { index }));
		index += 1;
	}
	frames.push(
		anthropicEvent('message_delta', {
			delta: { stop_reason: ANTHROPIC_STOP[reply.finish], stop_sequence: null },
			usage: { output_tokens: reply.usage.outputTokens }
		})
	);
	frames.push(anthropicEvent('message_stop', {}));
	return frames;
}

/** The opening of an endless Anthropic stream: a message and an open text block that never closes. */
export function anthropicEndlessOpening(reply: WireReply, id: string): string[] {
	return [anthropicMessageStart(reply, id), anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })];
}

export function anthropicEndlessFrame(send: 'delta' | 'keepalive'): string {
	return send === 'delta'
		? anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: '.' } })
		: anthropicEvent('ping', {});
}

function parsedInput(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		// The non-streaming wire can only carry an object; a deliberately broken argument string travels inside one.
		return { _unparsable: text };
	}
}

export function anthropicJson(reply: WireReply, id: string): Record<string, unknown> {
	const content: Record<string, unknown>[] = [];
	const text = reply.text.join('');
	if (text !== '') content.push({ type: 'text', text, citations: null });
	for (const call of reply.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: parsedInput(call.arguments) });
	return {
		id,
		type: 'message',
		role: 'assistant',
		model: reply.model,
		content,
		stop_reason: ANTHROPIC_STOP[reply.finish],
		stop_sequence: null,
		usage: anthropicUsage(reply)
	};
}

export function anthropicErrorBody(status: number, message: string): Record<string, unknown> {
	const type =
		status === 401
			? 'authentication_error'
			: status === 403
				? 'permission_error'
				: status === 429
					? 'rate_limit_error'
					: status === 529
						? 'overloaded_error'
						: status >= 500
							? 'api_error'
							: 'invalid_request_error';
	return { type: 'error', error: { type, message } };
}

/**
 * Chat Completions stream chunks → provider-neutral events.
 *
 * Written for the many OpenAI-compatible servers as much as for OpenAI: tool-call fragments are matched by
 * `index` (by position when a server leaves it out), a server that repeats the id on every fragment or
 * reuses index 0 for a second call still yields separate calls, missing ids are made up, and a server that
 * reports `stop` after calling tools is read as `tool_calls`.
 */
import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { LlmError } from './errors';

/** Usage as OpenAI-compatible servers send it: some leave out counts the SDK's types call required. */
type WireUsage = Partial<CompletionUsage>;
/** A chunk as OpenAI-compatible servers send it: the usage-only chunk may have no `choices`, a choice no `delta`. */
type WireChunk = Omit<ChatCompletionChunk, 'choices'> & {
	choices?: (Omit<ChatCompletionChunk.Choice, 'delta'> & { delta?: ChatCompletionChunk.Choice.Delta })[];
};
import type { StreamDecoder } from './guarded-stream';
import type { FinishReason, LlmEvent, LlmUsage } from './types';

interface PendingCall {
	id: string;
	name: string;
	arguments: string;
}

/** Arguments of a call to a tool without parameters, when the server sends none at all. */
const EMPTY_ARGUMENTS = '{}';

function mapOpenAiFinish(reason: string): FinishReason {
	switch (reason) {
		case 'stop':
			return 'stop';
		case 'tool_calls':
		case 'function_call':
			return 'tool_calls';
		case 'length':
			return 'length';
		case 'content_filter':
			return 'content_filter';
		default:
			return 'other';
	}
}

export function mapOpenAiUsage(usage: WireUsage): LlmUsage {
	const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
	return {
		inputTokens: usage.prompt_tokens ?? 0,
		outputTokens: usage.completion_tokens ?? 0,
		cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
		...(reasoning > 0 ? { reasoningTokens: reasoning } : {})
	};
}

/**
 * Gemini's OpenAI-compatible endpoint: `prompt_tokens` includes the implicitly cached tokens, which it reports
 * in `prompt_tokens_details.cached_tokens` as OpenAI does. Its thinking tokens are billed as output but have
 * not always been counted in `completion_tokens`; `total_tokens` always holds them, so the larger of the two
 * readings is the output.
 */
export function mapGeminiUsage(usage: WireUsage): LlmUsage {
	const base = mapOpenAiUsage(usage);
	const fromTotal = (usage.total_tokens ?? 0) - base.inputTokens;
	// Thinking left out of completion_tokens is what total_tokens holds beyond it.
	const reasoning = Math.max(base.reasoningTokens ?? 0, fromTotal - base.outputTokens);
	return { ...base, outputTokens: Math.max(base.outputTokens, fromTotal), ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}) };
}

export class OpenAiStreamDecoder implements StreamDecoder<ChatCompletionChunk> {
	private readonly calls: PendingCall[] = [];
	private readonly callAtIndex = new Map<number, PendingCall>();
	private emittedCalls = 0;
	private finish: FinishReason | undefined;
	private usage: LlmUsage | undefined;

	constructor(private readonly mapUsage: (usage: WireUsage) => LlmUsage = mapOpenAiUsage) {}

	push(chunk: WireChunk): LlmEvent[] {
		const events: LlmEvent[] = [];
		if (chunk.usage) this.usage = this.mapUsage(chunk.usage);
		// Only the first choice is ours: we never ask for n > 1. The usage-only chunk has no choices at all.
		const choice = chunk.choices?.[0];
		if (!choice) return events;
		const delta = choice.delta;
		if (delta?.content) events.push({ type: 'text', delta: delta.content });
		if (delta?.refusal) events.push({ type: 'text', delta: delta.refusal });
		delta?.tool_calls?.forEach((fragment, position) => this.addFragment(fragment, position));
		if (choice.finish_reason) {
			this.finish = mapOpenAiFinish(choice.finish_reason);
			events.push(...this.flushCalls());
		}
		return events;
	}

	end(): LlmEvent[] {
		if (this.finish === undefined) {
			// A clean close without a finish reason is what a dropped proxy connection looks like.
			throw new LlmError('network', 'The OpenAI-compatible stream ended before the model finished.', { provider: 'openai' });
		}
		const events = this.flushCalls();
		if (this.usage) events.push({ type: 'usage', ...this.usage });
		const reason = this.finish === 'stop' && this.emittedCalls > 0 ? 'tool_calls' : this.finish;
		events.push({ type: 'finish', reason });
		return events;
	}

	private addFragment(fragment: ChatCompletionChunk.Choice.Delta.ToolCall, position: number): void {
		const index = typeof fragment.index === 'number' ? fragment.index : position;
		let call = this.callAtIndex.get(index);
		const startsAnotherCall =
			call !== undefined && fragment.id !== undefined && fragment.id !== '' && call.id !== '' && fragment.id !== call.id;
		if (call === undefined || startsAnotherCall) {
			call = { id: '', name: '', arguments: '' };
			this.calls.push(call);
			this.callAtIndex.set(index, call);
		}
		if (fragment.id && call.id === '') call.id = fragment.id;
		if (fragment.function?.name && call.name === '') call.name = fragment.function.name;
		if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
	}

	private flushCalls(): LlmEvent[] {
		const events: LlmEvent[] = [];
		for (const call of this.calls.splice(0)) {
			this.emittedCalls += 1;
			events.push({
				type: 'tool_call',
				// Made-up ids must stay unique over the whole history: a later Anthropic model rejects repeats.
				id: call.id || `call_${randomUUID()}`,
				name: call.name,
				arguments: call.arguments.trim() === '' ? EMPTY_ARGUMENTS : call.arguments
			});
		}
		this.callAtIndex.clear();
		return events;
	}
}

/** Anthropic Messages stream events → provider-neutral events. */
import type { MessageDeltaUsage, RawMessageStreamEvent, Usage } from '@anthropic-ai/sdk/resources/messages';
import { LlmError } from './errors';
import type { StreamDecoder } from './guarded-stream';
import type { FinishReason, LlmEvent, LlmUsage } from './types';

interface PendingToolUse {
	id: string;
	name: string;
	partialJson: string;
	/** The `input` of content_block_start; used when no JSON delta follows (a tool without parameters). */
	initialInput: unknown;
}

function mapAnthropicStop(reason: string): FinishReason {
	switch (reason) {
		case 'end_turn':
		case 'stop_sequence':
			return 'stop';
		case 'tool_use':
			return 'tool_calls';
		case 'max_tokens':
		case 'model_context_window_exceeded':
			return 'length';
		case 'refusal':
			return 'content_filter';
		default:
			return 'other';
	}
}

/** Anthropic's counts, as the wire has them; `input_tokens` excludes cache reads and writes. */
interface WireUsage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

export function toLlmUsage(wire: WireUsage): LlmUsage {
	return {
		inputTokens: wire.input + wire.cacheRead + wire.cacheWrite,
		outputTokens: wire.output,
		cachedInputTokens: wire.cacheRead,
		cacheWriteTokens: wire.cacheWrite
	};
}

export class AnthropicStreamDecoder implements StreamDecoder<RawMessageStreamEvent> {
	private readonly toolUses = new Map<number, PendingToolUse>();
	private usage: WireUsage | undefined;
	private stopReason: FinishReason | undefined;
	private sawToolUse = false;

	push(event: RawMessageStreamEvent): LlmEvent[] {
		switch (event.type) {
			case 'message_start':
				this.mergeUsage(event.message.usage);
				return [];
			case 'content_block_start': {
				const block = event.content_block;
				if (block.type === 'tool_use') {
					this.toolUses.set(event.index, { id: block.id, name: block.name, partialJson: '', initialInput: block.input });
					this.sawToolUse = true;
				}
				if (block.type === 'text' && block.text) return [{ type: 'text', delta: block.text }];
				return [];
			}
			case 'content_block_delta': {
				const delta = event.delta;
				if (delta.type === 'text_delta') return delta.text ? [{ type: 'text', delta: delta.text }] : [];
				if (delta.type === 'input_json_delta') {
					const toolUse = this.toolUses.get(event.index);
					if (!toolUse)
						throw new LlmError('protocol', `The Anthropic stream sent tool input for block ${event.index}, which is not a tool call.`, {
							provider: 'anthropic'
						});
					toolUse.partialJson += delta.partial_json;
				}
				// Thinking, signature and citation deltas are not part of the neutral stream.
				return [];
			}
			case 'content_block_stop':
				return this.finishToolUse(event.index);
			case 'message_delta':
				if (event.delta.stop_reason) this.stopReason = mapAnthropicStop(event.delta.stop_reason);
				this.mergeUsage(event.usage);
				return [];
			case 'message_stop':
				return [];
			default:
				return [];
		}
	}

	end(): LlmEvent[] {
		if (this.stopReason === undefined) {
			throw new LlmError('network', 'The Anthropic stream ended before the model finished.', { provider: 'anthropic' });
		}
		const events: LlmEvent[] = [];
		// A block left open by a sloppy server is still a whole call once the message has stopped.
		for (const index of [...this.toolUses.keys()]) events.push(...this.finishToolUse(index));
		if (this.usage) events.push({ type: 'usage', ...toLlmUsage(this.usage) });
		const reason = this.stopReason === 'stop' && this.sawToolUse ? 'tool_calls' : this.stopReason;
		events.push({ type: 'finish', reason });
		return events;
	}

	private finishToolUse(index: number): LlmEvent[] {
		const toolUse = this.toolUses.get(index);
		if (!toolUse) return [];
		this.toolUses.delete(index);
		const text = toolUse.partialJson.trim() === '' ? JSON.stringify(toolUse.initialInput ?? {}) : toolUse.partialJson;
		return [{ type: 'tool_call', id: toolUse.id, name: toolUse.name, arguments: text }];
	}

	/** message_start carries the first counts; message_delta's are cumulative and replace them when present. */
	// Partial: OpenAI-compatible gateways speaking this wire format leave out counts the SDK's types call required.
	private mergeUsage(usage: Partial<Usage> | Partial<MessageDeltaUsage> | null | undefined): void {
		if (!usage) return;
		const previous = this.usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
		this.usage = {
			input: usage.input_tokens ?? previous.input,
			output: usage.output_tokens ?? previous.output,
			cacheRead: usage.cache_read_input_tokens ?? previous.cacheRead,
			cacheWrite: usage.cache_creation_input_tokens ?? previous.cacheWrite
		};
	}
}

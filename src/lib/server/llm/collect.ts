/** Drains a provider stream into one reply: for callers that don't show text as it arrives, and for tests. */
import { LlmError } from './errors';
import type { FinishReason, LlmEvent, LlmToolCall, LlmUsage } from './types';

export interface CollectedReply {
	text: string;
	toolCalls: LlmToolCall[];
	usage: LlmUsage | undefined;
	finish: FinishReason;
}

export async function collectStream(stream: AsyncIterable<LlmEvent>, onEvent?: (event: LlmEvent) => void): Promise<CollectedReply> {
	let text = '';
	const toolCalls: LlmToolCall[] = [];
	let usage: LlmUsage | undefined;
	let finish: FinishReason | undefined;
	for await (const event of stream) {
		onEvent?.(event);
		switch (event.type) {
			case 'text':
				text += event.delta;
				break;
			case 'tool_call':
				toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
				break;
			case 'usage':
				usage = {
					inputTokens: event.inputTokens,
					outputTokens: event.outputTokens,
					cachedInputTokens: event.cachedInputTokens,
					...(event.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: event.cacheWriteTokens }),
					...(event.reasoningTokens === undefined ? {} : { reasoningTokens: event.reasoningTokens })
				};
				break;
			case 'finish':
				finish = event.reason;
				break;
		}
	}
	if (finish === undefined) throw new LlmError('protocol', 'The LLM stream ended without a finish event.');
	return { text, toolCalls, usage, finish };
}

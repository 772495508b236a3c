/**
 * What a turn asks the model with: the prompt built from what the turn starts from: the system text
 * (mission, then the records head), the conversation (the window and the player's input, or the
 * checkpoint request) and the tools. The LLM settings (a free tier's fixed model over the session's)
 * come with the budget's start (metering.ts), which reads the tier.
 */
import { buildContext, checkpointMessages, systemText, windowOf, type ContextMessage } from '../context-window';
import type { LlmMessage, LlmToolSpec } from '../llm';
import type { TurnRow } from './turns';
import type { TurnStart } from './history';
import type { EngineDeps } from './types';

/** The parts of every call of a turn; `conversation` grows with each round's tool calls and results. */
export interface TurnPrompt {
	system: string;
	/** How many leading characters of `system` never change (the mission). */
	stableSystemChars: number;
	conversation: LlmMessage[];
	tools: LlmToolSpec[];
}

export function buildRequest(deps: EngineDeps, turn: TurnRow, start: TurnStart): TurnPrompt {
	const mission = start.mission ?? '';
	const { head, history } = start;
	let messages: ContextMessage[];
	let headText: string;
	if (turn.kind === 'player') {
		const ctx = buildContext(mission, head, windowOf(history, deps.config.engine.memory), turn.input);
		messages = ctx.messages;
		headText = ctx.head;
	} else {
		const ctx = buildContext(mission, head, [], '');
		headText = ctx.head;
		messages = checkpointMessages(history, turn.input);
	}
	const system = systemText({ mission, head: headText });
	const conversation: LlmMessage[] = messages.map((m) => ({ role: m.role, content: m.content }));
	return { system, stableSystemChars: mission.length, conversation, tools: toolSpecs(deps.tools) };
}

/**
 * The tools as the model sees them, built once per tool map: the map is fixed for the app's life, and
 * the same array every turn lets what is derived from it (its size in bytes) be kept too.
 */
const specsOf = new WeakMap<EngineDeps['tools'], LlmToolSpec[]>();

function toolSpecs(tools: EngineDeps['tools']): LlmToolSpec[] {
	let specs = specsOf.get(tools);
	if (!specs) {
		specs = [...tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		specsOf.set(tools, specs);
	}
	return specs;
}

/**
 * What a turn asks the model with: the request's parts (the mission, the records head, the window, and the
 * turn's own messages, which grow with each tool round) and the budget of the model's context they are
 * fitted within before every call (context-window/fit.ts), the reply's output cap included. The LLM settings
 * (a free tier's fixed model over the session's) come with the budget's start (metering.ts), which reads the
 * tier; the context budget follows from them.
 */
import {
	checkpointMessages,
	fitRequest,
	renderHead,
	requestBudget,
	systemText,
	tokenizerMargin,
	windowOf,
	type Exchange,
	type FittedRequest,
	type RequestBudget,
	type RequestParts,
	type TokenCounter
} from '../context-window';
import { contextTokensFor } from '../config';
import type { LlmMessage, LlmProvider, LlmRequest, LlmToolSpec, ProviderName } from '../llm';
import type { TurnRow } from './turns';
import { gmLine } from './whisper';
import type { TurnStart } from './history';
import type { EngineDeps } from './types';

/** The parts of every call of a turn; `parts.turn` grows with each round's tool calls and results. */
export interface TurnPrompt {
	parts: RequestParts & { turn: LlmMessage[] };
	budget: RequestBudget;
	count: TokenCounter;
}

/** A player turn's parts: the window and the player's input. */
export function playerParts(deps: EngineDeps, turn: TurnRow, start: TurnStart): TurnPrompt['parts'] {
	return {
		mission: start.mission ?? '',
		head: start.head,
		window: windowOf(start.history, deps.config.engine.memory),
		turn: [{ role: 'user', content: gmLine(turn.input, turn.whisperAs) }],
		tools: toolSpecs(deps.tools)
	};
}

/**
 * A checkpoint request's parts: the exchanges to summarise (no window: the summary replaces them) and the
 * instruction. `summary`: the hand-off summary the head carries, when it is not the stored one (a later
 * part of a checkpoint written in parts carries the summary the part before it wrote).
 */
export function checkpointParts(
	deps: EngineDeps,
	start: TurnStart,
	history: readonly Exchange[],
	instruction: string,
	summary?: string
): TurnPrompt['parts'] {
	return {
		mission: start.mission ?? '',
		head: summary === undefined ? start.head : { ...start.head, summary },
		window: [],
		turn: checkpointMessages(history, instruction),
		tools: toolSpecs(deps.tools),
		keepSummary: true
	};
}

/**
 * The turn's first call with nothing left out: before the model is known (the tier decides it), the budget
 * is not either; the worst case reserved for that call is priced on this, which only gets smaller fitted.
 */
export function unfittedCall(parts: RequestParts): Pick<LlmRequest, 'system' | 'messages' | 'tools'> {
	const messages: LlmMessage[] = [
		...parts.window.flatMap((ex): LlmMessage[] => [
			{ role: 'user', content: ex.player },
			{ role: 'assistant', content: ex.gm }
		]),
		...parts.turn
	];
	return { system: systemText({ mission: parts.mission, head: renderHead(parts.head) }), messages, tools: parts.tools };
}

/**
 * The budget of a turn's calls with this provider and model: the context configured for it
 * (KANTERA_CONTEXT_TOKENS), lowered to what the server says it serves where it says (a local server's own
 * setting: llm/server-context.ts), and the margin for the model's tokenizer.
 */
export async function budgetFor(
	deps: EngineDeps,
	llm: { provider: ProviderName; model: string },
	provider: LlmProvider,
	signal: AbortSignal
): Promise<RequestBudget> {
	const configured = contextTokensFor(deps.config.engine.context, llm.provider, llm.model);
	const served = await provider.servedContext?.(llm.model, signal);
	const contextTokens = served === undefined ? configured : Math.min(configured, served);
	const ownEndpoint = !deps.config.llm.configured || deps.config.llm[llm.provider].baseUrl === undefined;
	return requestBudget(contextTokens, tokenizerMargin(llm.provider, llm.model, ownEndpoint));
}

/** The request of the prompt's next call, fitted within its budget. */
export function fitPrompt(p: TurnPrompt): FittedRequest {
	return fitRequest(p.parts, p.budget, p.count);
}

/**
 * The tools as the model sees them, built once per tool map: the map is fixed for the app's life, and
 * the same array every turn lets what is derived from it (its size in bytes and tokens) be kept too.
 */
const specsOf = new WeakMap<EngineDeps['tools'], LlmToolSpec[]>();

export function toolSpecs(tools: EngineDeps['tools']): LlmToolSpec[] {
	let specs = specsOf.get(tools);
	if (!specs) {
		specs = [...tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		specsOf.set(tools, specs);
	}
	return specs;
}

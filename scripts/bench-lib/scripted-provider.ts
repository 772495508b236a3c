/**
 * An in-process LLM provider that answers instantly from a CampaignScript. It implements the
 * provider-neutral `LlmProvider` interface directly (no HTTP, no SDK), so everything measured around
 * it is the harness. It keeps a record of every call and of the time spent inside its own code.
 */
import { performance } from 'node:perf_hooks';
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest } from '../../src/lib/server/llm';
import type { CampaignScript, PlannedTool } from './campaign-script';

export type CallKind = 'player' | 'player-after-tool' | 'checkpoint' | 'checkpoint-after-tool';

/** A tool call the GM made and what the engine answered. */
export interface ToolExchange {
	turn: number;
	name: string;
	arguments: string;
	content: string;
}

export interface CallRecord {
	kind: CallKind;
	/** The player turn being played (for checkpoints: the turn after which it ran). */
	turn: number;
	inputTokens: number;
	/** Of them, those the prompt cache served. */
	cachedInputTokens: number;
	outputTokens: number;
	/** Milliseconds spent inside the provider's own code for this call. */
	ms: number;
}

export interface ScriptedProviderOptions {
	/** Input tokens to report for a request (what the vendor would bill). */
	countInput(req: LlmRequest): number;
	countOutput(text: string): number;
	/** Of a request's input, the tokens a provider's prompt cache would serve (default none). */
	cachedInput?(req: LlmRequest): number;
	/** Whether the calls report their usage, as vendors do (default true); without it the engine counts the tokens itself. */
	reportUsage?: boolean;
	/** Called with every request, untimed (the campaign bench records the series here). */
	observe?(req: LlmRequest, call: CallRecord): void;
}

/** Streamed text arrives in pieces of this size, as a vendor's deltas would (the engine coalesces them). */
const DELTA_CHARS = 64;
/** The first-call text of a turn that calls a tool. */
const TOOL_PREAMBLE = 'One moment.';

function operatorCheckpoint(messages: readonly LlmMessage[]): boolean {
	const lastUser = [...messages].reverse().find((m) => m.role === 'user');
	return lastUser?.content.startsWith('[OPERATOR') ?? false;
}

export class ScriptedProvider implements LlmProvider {
	readonly name = 'openai';
	/** The player turn being played; the driver sets it before accepting the turn. */
	current = 0;
	checkpoints = 0;
	readonly calls: CallRecord[] = [];
	/** Every tool call made for a player turn, with the engine's answer (read from the follow-up request). */
	readonly toolExchanges: ToolExchange[] = [];
	/** Milliseconds spent inside this provider's own code, over all calls. */
	ownMs = 0;

	constructor(
		private readonly script: CampaignScript,
		private readonly opts: ScriptedProviderOptions
	) {}

	private spent(call: CallRecord, since: number): void {
		const ms = performance.now() - since;
		call.ms += ms;
		this.ownMs += ms;
	}

	async *stream(req: LlmRequest): AsyncGenerator<LlmEvent, void, undefined> {
		let started = performance.now();
		const afterTool = req.messages.at(-1)?.role === 'tool';
		const checkpoint = operatorCheckpoint(req.messages);
		let text: string;
		let tools: PlannedTool[] = [];
		if (checkpoint) {
			if (!afterTool) this.checkpoints++;
			if (afterTool) text = this.script.summary(this.checkpoints);
			else {
				text = '';
				tools = [this.script.checkpointTool(this.checkpoints)];
			}
		} else {
			const turn = this.script.turn(this.current);
			const planned = turn.tools ?? (turn.tool ? [turn.tool] : []);
			if (planned.length > 0 && !afterTool) {
				text = TOOL_PREAMBLE;
				tools = planned;
			} else text = turn.gm;
			if (afterTool) this.recordToolResults(req);
		}
		const kind: CallKind = checkpoint ? (afterTool ? 'checkpoint-after-tool' : 'checkpoint') : afterTool ? 'player-after-tool' : 'player';
		const args = tools.map((t) => JSON.stringify(t.args));
		const call: CallRecord = {
			kind,
			turn: this.current,
			inputTokens: this.opts.countInput(req),
			cachedInputTokens: this.opts.cachedInput?.(req) ?? 0,
			outputTokens: this.opts.countOutput(text + args.join('')),
			ms: 0
		};
		this.calls.push(call);
		this.spent(call, started);
		this.opts.observe?.(req, call);
		started = performance.now();

		for (let i = 0; i < text.length; i += DELTA_CHARS) {
			const delta = text.slice(i, i + DELTA_CHARS);
			this.spent(call, started);
			yield { type: 'text', delta };
			started = performance.now();
		}
		for (const [i, tool] of tools.entries()) {
			this.spent(call, started);
			yield { type: 'tool_call', id: `call_${this.calls.length}_${i}`, name: tool.name, arguments: args[i] ?? '' };
			started = performance.now();
		}
		this.spent(call, started);
		if (this.opts.reportUsage !== false)
			yield { type: 'usage', inputTokens: call.inputTokens, outputTokens: call.outputTokens, cachedInputTokens: call.cachedInputTokens };
		yield { type: 'finish', reason: tools.length > 0 ? 'tool_calls' : 'stop' };
	}

	/** The tool results at the end of a follow-up request, paired with the calls that asked for them. */
	private recordToolResults(req: LlmRequest): void {
		const results = trailingToolResults(req);
		const asked = req.messages.findLast((x) => x.role === 'assistant');
		for (const m of results) {
			const call = asked?.role === 'assistant' ? asked.toolCalls?.find((c) => c.id === m.toolCallId) : undefined;
			this.toolExchanges.push({ turn: this.current, name: m.name, arguments: call?.arguments ?? '', content: m.content });
		}
	}
}

type ToolMessage = Extract<LlmMessage, { role: 'tool' }>;

/** The results of the round just run: the tool messages at the end of a follow-up request (earlier rounds' are before them). */
export function trailingToolResults(req: LlmRequest): ToolMessage[] {
	const out: ToolMessage[] = [];
	for (let i = req.messages.length - 1; i >= 0; i--) {
		const m = req.messages[i];
		if (m?.role !== 'tool') break;
		out.unshift(m);
	}
	return out;
}

/** Every text of a request as one string per part: system, message contents, tool calls and results. */
export function requestTexts(req: LlmRequest): string[] {
	const out = [req.system];
	for (const m of req.messages) {
		out.push(m.content);
		if (m.role === 'assistant') for (const c of m.toolCalls ?? []) out.push(c.name, c.arguments);
	}
	return out;
}

/**
 * The capped tool loop of one turn: call the model (its worst case reserved against the shared budget
 * first, its text streamed into the event log, the call metered), run the tools it asked for, and go
 * round again until it answers without tools, the budget or the round cap stops it, or the turn halts.
 */
import { priceFor, release, reserveWhenFree, worstCaseMicros, type BudgetExceededError, type ModelPrice } from '../budget';
import { LlmError, type LlmProvider, type LlmRequest, type LlmToolCall, type LlmToolSpec, type LlmUsage, type ProviderName } from '../llm';
import { runToolCall, type ToolContext } from '../tools';
import type { ReplyRound } from '../context-window';
import type { SessionEvent } from '../../types/events';
import type { DeltaWriter } from './deltas';
import type { TurnRow } from './turns';
import type { TurnPrompt } from './request';
import { meter, NO_USAGE, type Metering } from './metering';
import type { EngineDeps } from './types';

/** The model's output cap per call; generous for narration, bounded so one call can't run away. */
export const MAX_OUTPUT_TOKENS = 4096;

/**
 * How long a call's budget reservation outlives the turn's deadline: a process that died mid-call
 * leaves one behind, and this is when it stops holding the money.
 */
export const RESERVATION_GRACE_MS = 60_000;

/** What the loop runs with: the same for every round of the turn. */
export interface ToolLoop {
	deps: EngineDeps;
	turn: TurnRow;
	provider: LlmProvider;
	settings: { provider: ProviderName; model: string };
	prompt: TurnPrompt;
	toolCtx: ToolContext;
	/** Streams the player's reply into the event log as it comes. */
	deltas: DeltaWriter;
	metering: Metering;
	emit: (event: SessionEvent) => Promise<void>;
	/** The player's cancel or the turn's deadline: every LLM call and budget wait stops on it. */
	stop: AbortSignal;
	/** The error the turn ends with once `stop` has fired. */
	halted: () => Error;
	deadlineMs: number;
	now: () => number;
}

/** What a tool loop ends with. */
export interface LoopResult {
	/** The rounds' texts, trimmed, joined by a blank line. */
	reply: string;
	/** Every round that wrote text, with what its call reported: the exchange's tokens come from them. */
	rounds: ReplyRound[];
	/** When the budget or the round cap ended it early, why. */
	stopped: string | undefined;
}

export async function runToolLoop(l: ToolLoop): Promise<LoopResult> {
	const { stop, halted } = l;
	const { guard } = l.metering;
	const price = priceFor(l.deps.config.engine.prices, l.settings.model);
	const replyParts: string[] = [];
	const rounds: ReplyRound[] = [];
	let stopped: string | undefined;

	for (;;) {
		if (stop.aborted) throw halted();
		const exceeded = guard.exceeded();
		if (exceeded) {
			stopped = stopReason(exceeded);
			break;
		}
		const round = await callModel(l, price, replyParts.length > 0);
		if (!round.ok) {
			stopped = stopReason(round.exceeded);
			break;
		}
		const { text, calls, usage } = round;
		if (text.trim()) {
			replyParts.push(text.trim());
			rounds.push({ text, toolCalls: calls.length, usage });
		}
		if (calls.length === 0) break;
		l.prompt.conversation.push({ role: 'assistant', content: text, toolCalls: calls });
		await runTools(l, calls);
	}
	return { reply: replyParts.join('\n\n'), rounds, stopped };
}

type Round = { ok: true; text: string; calls: LlmToolCall[]; usage: LlmUsage | undefined } | { ok: false; exceeded: BudgetExceededError };

/**
 * One call of the model: reserve its worst case, stream it, meter it. `continuing` says an earlier
 * round already wrote reply text.
 */
async function callModel(l: ToolLoop, price: ModelPrice | undefined, continuing: boolean): Promise<Round> {
	const { deps, turn, provider, settings, prompt, deltas, stop, now } = l;
	const { payer, guard } = l.metering;
	// The mission leads the system text and never changes: with the tools it is the prompt-cache prefix.
	const request = {
		model: settings.model,
		system: prompt.system,
		stableSystemChars: prompt.stableSystemChars,
		messages: prompt.conversation,
		tools: prompt.tools,
		maxOutputTokens: MAX_OUTPUT_TOKENS,
		signal: stop
	};
	// The scopes other turns share hold this call's worst case until it is settled, so turns running
	// at once (in any session or process) can't all start a call on the same remaining money.
	const reservation = await reserveWhenFree(
		deps.control.db,
		payer,
		deps.config.engine.budget,
		worstCaseMicros(price, requestBytes(request), MAX_OUTPUT_TOKENS),
		{
			now,
			ttlMs: l.deadlineMs + RESERVATION_GRACE_MS,
			signal: stop
		}
	);
	if (!reservation.ok) return { ok: false, exceeded: reservation.exceeded };
	guard.refresh(reservation.totals);
	let text = '';
	const calls: LlmToolCall[] = [];
	let usage: LlmUsage | undefined;
	let finished = false;
	let failure: string | undefined;
	const call = { started: now(), retries: 0 };
	try {
		for await (const ev of provider.stream({ ...request, onRetry: () => void (call.retries += 1) })) {
			if (ev.type === 'text') {
				// The reply joins rounds with a blank line: stream it too, so live paragraph numbers match the cues'.
				if (turn.kind === 'player' && text === '' && continuing) deltas.push('\n\n');
				text += ev.delta;
				if (turn.kind === 'player') deltas.push(ev.delta);
			} else if (ev.type === 'tool_call') calls.push({ id: ev.id, name: ev.name, arguments: ev.arguments });
			else if (ev.type === 'usage') usage = ev;
		}
		finished = true;
	} catch (err) {
		failure = err instanceof LlmError ? err.kind : 'internal';
		throw err;
	} finally {
		const at = now();
		const logged = { provider: settings.provider, model: settings.model, latencyMs: at - call.started, retries: call.retries, failure };
		// Metered even when the stream failed part-way: whatever the vendor reported was paid for.
		// A call that failed before reporting anything only gives its reservation back (and is logged as failed).
		if (usage || finished) await meter(l.metering, { reservationId: reservation.id, call: logged, usage: usage ?? NO_USAGE, at });
		else
			await release(deps.control.db, reservation.id, {
				payer,
				record: { ...logged, ...NO_USAGE, cacheWriteTokens: 0, costMicros: 0 },
				at
			});
	}
	return { ok: true, text, calls, usage };
}

/** Runs the round's tool calls in order, each result added to the conversation. */
async function runTools(l: ToolLoop, calls: readonly LlmToolCall[]): Promise<void> {
	const { deps, turn, toolCtx, emit, stop, halted } = l;
	for (const call of calls) {
		if (aborted(stop)) throw halted();
		const staged = { cues: toolCtx.cues.length, places: toolCtx.places.length };
		const result = await runToolCall(deps.tools, call, toolCtx);
		l.prompt.conversation.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content, isError: result.isError });
		if (turn.kind === 'player' && deps.visibleTools.has(call.name)) await emit({ type: 'tool.activity', turnId: turn.id, tool: call.name });
		// Staged stage directions go to the screen now, to play at their paragraph while the reply streams.
		if (turn.kind === 'player' && (toolCtx.cues.length > staged.cues || toolCtx.places.length > staged.places)) {
			await emit({
				type: 'stage.staged',
				turnId: turn.id,
				cues: toolCtx.cues.slice(staged.cues),
				places: toolCtx.places.slice(staged.places)
			});
		}
	}
}

/** Why a committed turn ended early, in words the player reads. */
function stopReason(err: BudgetExceededError): string {
	if (err.scope === 'turn' && err.unit === 'calls') return 'round_cap';
	return `budget:${err.scope}`;
}

/** The size of what a call sends, in bytes: the bound its worst-case input is priced at. */
function requestBytes(req: Pick<LlmRequest, 'system' | 'messages' | 'tools'>): number {
	return Buffer.byteLength(req.system) + Buffer.byteLength(JSON.stringify(req.messages)) + toolBytes(req.tools);
}

/** The tool schemas' JSON size, kept per array: a turn's prompt shares one array for the app's life (request.ts). */
const toolBytesOf = new WeakMap<readonly LlmToolSpec[], number>();

function toolBytes(tools: readonly LlmToolSpec[]): number {
	let bytes = toolBytesOf.get(tools);
	if (bytes === undefined) {
		bytes = Buffer.byteLength(JSON.stringify(tools));
		toolBytesOf.set(tools, bytes);
	}
	return bytes;
}

/**
 * Whether the signal has fired by now. Read through a call: a signal fires while the turn awaits, which
 * TypeScript's narrowing after an earlier `if (stop.aborted) throw` cannot see.
 */
export function aborted(signal: AbortSignal): boolean {
	return signal.aborted;
}

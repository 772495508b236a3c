/**
 * The capped tool loop of one turn: call the model (its worst case reserved against the shared budget
 * first, its text streamed into the event log, the call metered), run the tools it asked for, and go
 * round again until it answers without tools, the budget or the round cap stops it, or the turn halts.
 * A player turn's words pass the canon guard on their way (canon-round.ts).
 */
import type { BudgetExceededError } from '../budget';
import { LlmError, type LlmProvider, type LlmToolCall, type LlmUsage, type ProviderName } from '../llm';
import { runToolCall, type ToolContext } from '../tools';
import type { TurnCanon } from '../canon';
import type { CanonHit } from '../../canon';
import type { ReplyRound } from '../context-window';
import type { SessionEvent } from '../../types/events';
import type { DeltaWriter } from './deltas';
import type { TurnRow } from './turns';
import { fitPrompt, type TurnPrompt } from './request';
import { NO_USAGE, worstCaseOf, type TurnMeter } from './metering';
import { estimatedUsage, reconsider, refreshRevealed } from './canon-round';
import type { EngineDeps } from './types';

export { MAX_OUTPUT_TOKENS, RESERVATION_GRACE_MS } from './metering';

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
	metering: TurnMeter;
	emit: (event: SessionEvent) => Promise<void>;
	/** The player's cancel or the turn's deadline: every LLM call and budget wait stops on it. */
	stop: AbortSignal;
	/** The error the turn ends with once `stop` has fired. */
	halted: () => Error;
	now: () => number;
	/** A player turn's canon guard (none for a checkpoint or hand-off, whose words the player does not read). */
	canon: TurnCanon | undefined;
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
		const round = await callModel(l, replyParts.length > 0);
		if (!round.ok) {
			stopped = stopReason(round.exceeded);
			break;
		}
		if (round.withheld && l.canon) {
			// Withdrawn before the player saw it: asked once to write it again (a second time ends the turn).
			await reconsider(l, l.canon, round.withheld);
			continue;
		}
		const { text, calls, usage } = round;
		if (text.trim()) {
			replyParts.push(text.trim());
			rounds.push({ text, toolCalls: calls.length, usage });
		}
		if (calls.length === 0) break;
		l.prompt.parts.turn.push({ role: 'assistant', content: text, toolCalls: calls });
		await runTools(l, calls);
	}
	return { reply: replyParts.join('\n\n'), rounds, stopped };
}

type Round =
	| { ok: true; text: string; calls: LlmToolCall[]; usage: LlmUsage | undefined; withheld?: CanonHit }
	| { ok: false; exceeded: BudgetExceededError };

/**
 * One call of the model: reserve its worst case, stream it, meter it. `continuing` says an earlier
 * round already wrote reply text.
 */
async function callModel(l: ToolLoop, continuing: boolean): Promise<Round> {
	const { deps, turn, provider, settings, prompt, deltas, stop, now, metering } = l;
	// The guard ends the call as soon as it finds a term: nothing after it is wanted (or paid for).
	const withdrawn = new AbortController();
	// Fitted before every call: a tool round's results count too. The mission leads the system text and never
	// changes: with the tools it is the prompt-cache prefix.
	const fitted = fitPrompt(prompt);
	const request = {
		model: settings.model,
		system: fitted.system,
		stableSystemChars: fitted.stableSystemChars,
		messages: fitted.messages,
		tools: prompt.parts.tools,
		maxOutputTokens: prompt.budget.maxOutputTokens,
		signal: AbortSignal.any([stop, withdrawn.signal])
	};
	// The scopes other turns share hold this call's worst case until it is settled, so turns running
	// at once (in any session or process) can't all start a call on the same remaining money.
	const reservation = await metering.reserve(worstCaseOf(deps.config.engine.prices, settings.model, request), stop);
	if (!reservation.ok) return { ok: false, exceeded: reservation.exceeded };
	metering.guard.refresh(reservation.totals);
	let text = '';
	const calls: LlmToolCall[] = [];
	let usage: LlmUsage | undefined;
	let finished = false;
	let failure: string | undefined;
	let withheld: CanonHit | undefined;
	const call = { started: now(), retries: 0 };
	// Only a player turn's text is streamed; it reaches the event log through the guard's look-ahead.
	const check = turn.kind === 'player' ? l.canon?.reply((shown) => deltas.push(shown)) : undefined;
	const stream = (delta: string): CanonHit | undefined => {
		if (check) return check.push(delta);
		deltas.push(delta);
		return undefined;
	};
	try {
		for await (const ev of provider.stream({ ...request, onRetry: () => void (call.retries += 1) })) {
			if (ev.type === 'text') {
				// The reply joins rounds with a blank line: stream it too, so live paragraph numbers match the cues'.
				if (turn.kind === 'player' && text === '' && continuing) stream('\n\n');
				text += ev.delta;
				if (turn.kind === 'player') withheld = stream(ev.delta);
				if (withheld) break;
			} else if (ev.type === 'tool_call') calls.push({ id: ev.id, name: ev.name, arguments: ev.arguments });
			else if (ev.type === 'usage') usage = ev;
		}
		if (withheld) withdrawn.abort();
		else {
			finished = true;
			withheld = check?.end();
		}
	} catch (err) {
		failure = err instanceof LlmError ? err.kind : 'internal';
		throw err;
	} finally {
		const at = now();
		const logged = { provider: settings.provider, model: settings.model, latencyMs: at - call.started, retries: call.retries, failure };
		// Metered even when the stream failed part-way: whatever the vendor reported was paid for.
		// A call that failed before reporting anything only gives its reservation back (and is logged as failed).
		// Either is sent with the next call's reservation, or when the turn commits or ends (metering.ts).
		// A call the guard cut short reported nothing yet: it is metered at an estimate of what it used.
		if (usage || finished) metering.meter({ reservationId: reservation.id, call: logged, usage: usage ?? NO_USAGE, at });
		else if (withheld) metering.meter({ reservationId: reservation.id, call: logged, usage: estimatedUsage(request, text), at });
		else metering.release(reservation.id, logged, at);
	}
	return withheld ? { ok: true, text, calls: [], usage, withheld } : { ok: true, text, calls, usage };
}

/** Runs the round's tool calls in order, each result added to the conversation. */
async function runTools(l: ToolLoop, calls: readonly LlmToolCall[]): Promise<void> {
	const { deps, turn, toolCtx, emit, stop, halted } = l;
	for (const call of calls) {
		if (aborted(stop)) throw halted();
		// A call that would show the player a term is refused before it runs (a second time ends the turn).
		const refusal = turn.kind === 'player' ? l.canon?.refuseToolCall(call) : undefined;
		if (refusal) {
			l.prompt.parts.turn.push({ role: 'tool', toolCallId: call.id, name: call.name, content: refusal, isError: true });
			continue;
		}
		const staged = { cues: toolCtx.cues.length, places: toolCtx.places.length };
		const result = await runToolCall(deps.tools, call, toolCtx);
		l.prompt.parts.turn.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content, isError: result.isError });
		if (call.name === 'story_advance' && result.ran && !result.isError && l.canon) await refreshRevealed(l.canon, toolCtx);
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

/**
 * Whether the signal has fired by now. Read through a call: a signal fires while the turn awaits, which
 * TypeScript's narrowing after an earlier `if (stop.aborted) throw` cannot see.
 */
export function aborted(signal: AbortSignal): boolean {
	return signal.aborted;
}

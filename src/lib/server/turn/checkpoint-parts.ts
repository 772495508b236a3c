/**
 * A checkpoint or hand-off turn's tool loop: one over the whole history since the last checkpoint when its
 * request fits the model's context; otherwise the history is written in parts. The older half is summarised
 * first (itself in parts if it must be), then the rest, each part's request carrying the summary the part
 * before it wrote in place of the stored one; the last part's summary is the turn's reply. A single exchange
 * that does not fit even alone is cut (its reply first, then the player's line) until it does: all of it is
 * in the play log, which recall searches.
 */
import {
	checkpointPartInstruction,
	ContextTooSmallError,
	fitRequest,
	summaryLimitNote,
	type Exchange,
	type RequestBudget
} from '../context-window';
import type { Language } from '../../types/settings';
import type { TurnStart } from './history';
import { checkpointParts, type TurnPrompt } from './request';
import { runToolLoop, type LoopResult, type ToolLoop } from './tool-loop';

/** Below this many tokens for the summary, the instruction asks for one that fits (summaryLimitNote). */
const SUMMARY_NOTE_BELOW = 1_200;
/** The summary may take this share of what a request may take: the next requests all carry it. */
const SUMMARY_SHARE = 1 / 6;
const CUT_MARK = ' […]';
/**
 * A part is planned to fit with this share of the request's room to spare (at most TOOL_ROOM_TOKENS): its
 * tool rounds (the facts it records, and the results) come on top of its first call, and in a checkpoint
 * request hardly anything else can give way for them.
 */
const TOOL_ROOM_SHARE = 1 / 8;
const TOOL_ROOM_TOKENS = 512;

/** What a checkpoint part is planned to leave free for its tool rounds. */
export function toolRoom(budget: RequestBudget): number {
	return Math.min(TOOL_ROOM_TOKENS, Math.floor(budget.inputTokens * TOOL_ROOM_SHARE));
}

export interface CheckpointRun {
	start: TurnStart;
	budget: RequestBudget;
	/** The stored instruction (the turn's input): the first part's. */
	instruction: string;
	language: Language;
}

export async function writeCheckpoint(loop: Omit<ToolLoop, 'prompt'>, c: CheckpointRun): Promise<LoopResult> {
	const { deps } = loop;
	const count = deps.countTokens;
	const limit = Math.min(c.budget.maxOutputTokens, Math.floor(c.budget.inputTokens * SUMMARY_SHARE));
	const note = limit < SUMMARY_NOTE_BELOW ? summaryLimitNote(limit) : '';
	let summary: string | undefined;
	let part = 0;
	let result: LoopResult | undefined;
	const partsOf = (exchanges: readonly Exchange[]) =>
		checkpointParts(deps, c.start, exchanges, (part === 0 ? c.instruction : checkpointPartInstruction(c.language, part)) + note, summary);
	const planned = { ...c.budget, inputTokens: c.budget.inputTokens - toolRoom(c.budget) };
	const fits = (parts: TurnPrompt['parts']) => {
		try {
			fitRequest(parts, planned, count);
			return true;
		} catch (err) {
			if (err instanceof ContextTooSmallError) return false;
			throw err;
		}
	};
	const write = async (exchanges: readonly Exchange[]): Promise<boolean> => {
		let parts = partsOf(exchanges);
		if (!fits(parts) && exchanges.length > 1) {
			const half = Math.ceil(exchanges.length / 2);
			return (await write(exchanges.slice(0, half))) && write(exchanges.slice(half));
		}
		const [only] = exchanges;
		if (only && exchanges.length === 1) parts = partsOf([cutToFit(only, (ex) => fits(partsOf([ex])))]);
		if (part > 0) loop.metering.guard.newRounds();
		result = await runToolLoop({ ...loop, prompt: { parts, budget: c.budget, count } });
		part++;
		summary = result.reply;
		// The budget or the round cap stopped it, or it wrote no summary: what is there is the turn's end.
		return !result.stopped && result.reply !== '';
	};
	await write(c.start.history.filter((ex) => !ex.carried));
	return result ?? { reply: '', rounds: [], stopped: undefined };
}

/**
 * The exchange, its reply and then its line halved until it fits (or both are down to the mark: the fit then
 * says why). Never empty: a chat message must say something.
 */
function cutToFit(ex: Exchange, fits: (ex: Exchange) => boolean): Exchange {
	const mark = CUT_MARK.trim();
	const halve = (text: string) => {
		const kept = text.endsWith(CUT_MARK) ? text.slice(0, -CUT_MARK.length) : text;
		const half = kept.slice(0, Math.floor(kept.length / 2));
		return half ? half + CUT_MARK : mark;
	};
	let cut = ex;
	while (!fits(cut) && (cut.gm !== mark || cut.player !== mark))
		cut = cut.gm !== mark ? { ...cut, gm: halve(cut.gm) } : { ...cut, player: halve(cut.player) };
	return cut;
}

import type { MemoryPolicy, TokenCounter } from './policy';
import { estimateTokens } from './tokens';

/** One whole exchange: what the player said and what the GM finally replied. Never split. */
export interface Exchange {
	player: string;
	gm: string;
	/** Tokens of player + gm when already counted (stored at commit); counted on demand otherwise. */
	tokens?: number | undefined;
	/**
	 * An exchange from before the last checkpoint, kept verbatim so the next reply continues the
	 * thread (the player's next line answers the GM's last one). Its content is already in the
	 * hand-off summary: it counts for the window, not for the next checkpoint.
	 */
	carried?: boolean | undefined;
}

/**
 * What survives a checkpoint verbatim: the last exchanges before it, at most this many and, beyond
 * the newest one, only while they fit CARRY_TOKENS. The newest is always kept: it is the line the
 * player is answering (it is bounded anyway by the input limit and the model's output cap).
 */
export const CARRY_EXCHANGES = 2;
export const CARRY_TOKENS = 1_500;

export function exchangeTokens(ex: Exchange, count: TokenCounter): number {
	return ex.tokens ?? count(ex.player) + count(ex.gm);
}

/** Tokens of the history since the last checkpoint (carried exchanges are not part of it). */
export function historyTokens(history: readonly Exchange[], count: TokenCounter): number {
	let total = 0;
	for (const ex of history) if (!ex.carried) total += exchangeTokens(ex, count);
	return total;
}

/**
 * A checkpoint is due when the history since the last one is strictly over the threshold:
 * exactly at the threshold is still fine, one token over is not.
 */
export function checkpointDue(history: readonly Exchange[], policy: MemoryPolicy, count: TokenCounter): boolean {
	return history.some((ex) => !ex.carried) && historyTokens(history, count) > policy.checkpointTokens;
}

/**
 * The carried exchanges that fit the carry budget (see CARRY_EXCHANGES), oldest first. `count` is
 * only used for exchanges whose tokens were not stored.
 */
export function carryOver(carried: readonly Exchange[], count: TokenCounter = estimateTokens): Exchange[] {
	const kept: Exchange[] = [];
	let tokens = 0;
	for (const ex of [...carried].reverse()) {
		if (kept.length >= CARRY_EXCHANGES) break;
		const t = exchangeTokens(ex, count);
		if (kept.length > 0 && tokens + t > CARRY_TOKENS) break;
		kept.unshift(ex);
		tokens += t;
	}
	return kept;
}

/**
 * The last whole exchanges, the carried ones (within their budget) included: at most `windowExchanges` of
 * them and, beyond the newest (the line the player answers), no more than `windowTokens`. Bounding the
 * tokens keeps requests about one size whatever the language and the length of the replies (a Japanese
 * exchange takes about twice the tokens of an English one). `count` is only used for exchanges whose tokens
 * were not stored.
 */
export function windowOf(history: readonly Exchange[], policy: MemoryPolicy, count: TokenCounter = estimateTokens): readonly Exchange[] {
	const carried = carryOver(
		history.filter((ex) => ex.carried),
		count
	);
	const all = [...carried, ...history.filter((ex) => !ex.carried)];
	const kept: Exchange[] = [];
	let tokens = 0;
	for (let i = all.length - 1; i >= 0 && kept.length < policy.windowExchanges; i--) {
		const ex = all[i];
		if (!ex) break;
		const t = exchangeTokens(ex, count);
		if (kept.length > 0 && policy.windowTokens !== undefined && tokens + t > policy.windowTokens) break;
		kept.unshift(ex);
		tokens += t;
	}
	return kept;
}

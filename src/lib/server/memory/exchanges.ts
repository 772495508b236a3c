import type { MemoryPolicy, TokenCounter } from './policy';

/** One whole exchange: what the player said and what the GM finally replied. Never split. */
export interface Exchange {
	player: string;
	gm: string;
	/** Tokens of player + gm when already counted (stored at commit); counted on demand otherwise. */
	tokens?: number | undefined;
}

export function exchangeTokens(ex: Exchange, count: TokenCounter): number {
	return ex.tokens ?? count(ex.player) + count(ex.gm);
}

/** Tokens of the history since the last checkpoint. */
export function historyTokens(history: readonly Exchange[], count: TokenCounter): number {
	let total = 0;
	for (const ex of history) total += exchangeTokens(ex, count);
	return total;
}

/**
 * A checkpoint is due when the history since the last one is strictly over the threshold:
 * exactly at the threshold is still fine, one token over is not.
 */
export function checkpointDue(history: readonly Exchange[], policy: MemoryPolicy, count: TokenCounter): boolean {
	return history.length > 0 && historyTokens(history, count) > policy.checkpointTokens;
}

/** The last N whole exchanges. */
export function windowOf(history: readonly Exchange[], policy: MemoryPolicy): readonly Exchange[] {
	return history.slice(-policy.windowExchanges);
}

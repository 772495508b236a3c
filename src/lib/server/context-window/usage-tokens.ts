/**
 * How many tokens a committed exchange weighs in later contexts, which is what the checkpoint threshold
 * adds up. The reply is measured by the provider's own tokenizer when it reported usage: the output tokens
 * of a call that only wrote text are exactly that text (reasoning tokens aside, which never come back into
 * a context). Counting it again here would cost CPU on every turn (o200k is quadratic on a long run of
 * kana or kanji) and still be another vendor's tokenizer.
 *
 * The player's line has no such figure: the input tokens of a call cover the whole context, and the
 * difference between two turns' calls is not the new exchange (the window slides, the head changes,
 * carried exchanges drop out), so it can even be negative. It gets the cheap estimate instead: the line is
 * short next to the reply, and the estimate errs high (a checkpoint comes a little early, never late).
 *
 * Without usage (a server that reports none, or nothing usable) both sides go through the injected counter.
 */
import type { TokenCounter } from './policy';
import { estimateTokens } from './tokens';

/** One LLM call's share of a reply. */
export interface ReplyRound {
	/** The text the call wrote (the reply joins the rounds' trimmed texts). */
	text: string;
	/** Tool calls it made: their arguments are output tokens too, so such a round's count is not its text's. */
	toolCalls: number;
	/** What the provider reported for the call, when it did. */
	usage?: { outputTokens: number; reasoningTokens?: number | undefined } | undefined;
}

/** The output tokens that are the round's text, or undefined when the provider's figure can't say. */
function reportedTextTokens(round: ReplyRound): number | undefined {
	if (!round.usage || round.toolCalls > 0) return undefined;
	const tokens = round.usage.outputTokens - (round.usage.reasoningTokens ?? 0);
	// Some compatible servers send usage with zeros: a text of no tokens would never reach a checkpoint.
	return tokens > 0 ? tokens : undefined;
}

/** Tokens of a player exchange: the reply from reported usage where usable, else counted; the input to match. */
export function exchangeTokensOf(input: string, rounds: readonly ReplyRound[], count: TokenCounter): number {
	let reply = 0;
	let reported = false;
	for (const round of rounds) {
		const text = round.text.trim();
		if (!text) continue;
		const tokens = reportedTextTokens(round);
		if (tokens === undefined) reply += count(text);
		else {
			reply += tokens;
			reported = true;
		}
	}
	return (reported ? estimateTokens(input) : count(input)) + reply;
}

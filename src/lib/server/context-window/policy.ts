import * as v from 'valibot';

/**
 * How much conversation the GM sees. Both numbers must be positive: a zero window would drop the
 * exchange in progress, and a zero threshold would checkpoint on every turn. Validated at start-up.
 */
export const MemoryPolicySchema = v.object({
	/** The last N whole exchanges (player line + GM reply) that go into the context verbatim. */
	windowExchanges: v.pipe(v.number(), v.integer(), v.minValue(1, 'the window must hold at least one exchange')),
	/** History since the last checkpoint above this many tokens triggers a checkpoint turn. */
	checkpointTokens: v.pipe(v.number(), v.integer(), v.minValue(1, 'the checkpoint threshold must be greater than 0')),
	/** The window's exchanges take no more tokens than this (the newest is always kept); none: no bound but the count. */
	windowTokens: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'the window must hold at least one token')))
});
export type MemoryPolicy = v.InferOutput<typeof MemoryPolicySchema>;

/** Counts tokens in a text. Injected: a real tokenizer in production, a deterministic one in tests. */
export type TokenCounter = (text: string) => number;

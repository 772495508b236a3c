/**
 * How many tokens a model's context holds: KANTERA_CONTEXT_TOKENS, over a table of known models. Every
 * request the GM sends (its reply's output cap included) is kept within it (context-window/fit.ts).
 *
 * The variable is a comma-separated list: a bare number applies to every model no pair names; a pair
 * `provider:model=N` or `model=N` names one model, matched like the price table (the longest prefix of the
 * model id wins, so `llama3.1=8192` also covers `llama3.1:8b`). A provider prefix is read only when it is one
 * of the provider names, since model ids may contain colons themselves (`qwen2.5:7b`).
 * Order: a pair for the provider and model, a pair for the model, the bare number, the known table, and
 * last UNKNOWN_MODEL_CONTEXT_TOKENS (a local server's model: 8k is what they are commonly run with; the
 * server itself is asked where it says, see llm/server-context.ts).
 */
import * as v from 'valibot';
import { isProviderName, type ProviderName } from '../../types/settings';

/** The vendors' published context windows, by model-id prefix (the longest prefix that matches wins). */
export const KNOWN_CONTEXT_TOKENS: Readonly<Record<string, number>> = {
	'gpt-4.1': 1_047_576,
	'gpt-4o': 128_000,
	'gpt-4-turbo': 128_000,
	'gpt-5': 400_000,
	o1: 200_000,
	o3: 200_000,
	'o4-mini': 200_000,
	'claude-': 200_000,
	'gemini-1.5-pro': 2_097_152,
	'gemini-': 1_048_576
};

/** A model no setting and no table names: what local servers are commonly run with. */
export const UNKNOWN_MODEL_CONTEXT_TOKENS = 8_192;
/** Below this nothing useful fits: the GM rules and the fifteen tools alone take about 1,700 tokens. */
export const MIN_CONTEXT_TOKENS = 1_024;

export interface ContextPair {
	/** Undefined: any provider. */
	provider: ProviderName | undefined;
	model: string;
	tokens: number;
}

export interface ContextTokensConfig {
	/** The bare number, if the setting has one. */
	fallback: number | undefined;
	pairs: readonly ContextPair[];
}

const Tokens = v.pipe(
	v.string(),
	v.trim(),
	v.regex(/^\d+$/, 'must be a whole number of tokens'),
	v.transform(Number),
	v.minValue(MIN_CONTEXT_TOKENS, `must be at least ${MIN_CONTEXT_TOKENS} tokens`)
);

type Entry = { key: undefined; tokens: number } | { key: { provider: ProviderName | undefined; model: string }; tokens: number };

/** One comma-separated item: `N`, `model=N` or `provider:model=N`. */
const EntrySchema = v.pipe(
	v.string(),
	v.trim(),
	v.minLength(1, 'has an empty item between commas'),
	v.rawTransform(({ dataset, addIssue, NEVER }): Entry => {
		const text = dataset.value;
		const eq = text.lastIndexOf('=');
		const keyText = eq < 0 ? undefined : text.slice(0, eq).trim();
		const tokens = v.safeParse(Tokens, eq < 0 ? text : text.slice(eq + 1));
		if (!tokens.success) {
			addIssue({ message: `"${text}": ${tokens.issues[0].message}` });
			return NEVER;
		}
		if (keyText === undefined) return { key: undefined, tokens: tokens.output };
		const colon = keyText.indexOf(':');
		const prefix = colon > 0 ? keyText.slice(0, colon) : '';
		const provider = isProviderName(prefix) ? prefix : undefined;
		const model = (provider ? keyText.slice(colon + 1) : keyText).trim();
		if (!model) {
			addIssue({ message: `"${text}": name a model before "="` });
			return NEVER;
		}
		return { key: { provider, model }, tokens: tokens.output };
	})
);

/** KANTERA_CONTEXT_TOKENS, spread into the environment schema of config/index.ts. */
export const CONTEXT_ENV_ENTRIES = {
	KANTERA_CONTEXT_TOKENS: v.optional(
		v.pipe(
			v.string(),
			v.rawTransform(({ dataset, addIssue, NEVER }): ContextTokensConfig => {
				const entries: Entry[] = [];
				for (const item of dataset.value.split(',')) {
					const parsed = v.safeParse(EntrySchema, item);
					if (!parsed.success) {
						addIssue({ message: parsed.issues[0].message });
						return NEVER;
					}
					entries.push(parsed.output);
				}
				const bare = entries.filter((e) => e.key === undefined);
				if (bare.length > 1) {
					addIssue({ message: 'has more than one bare number' });
					return NEVER;
				}
				return { fallback: bare[0]?.tokens, pairs: entries.flatMap((e) => (e.key ? [{ ...e.key, tokens: e.tokens }] : [])) };
			})
		)
	)
};

/** The longest key of `table` that `model` starts with, if any. */
function longestPrefix<T>(entries: readonly (readonly [string, T])[], model: string): T | undefined {
	let best: { length: number; value: T } | undefined;
	for (const [key, value] of entries)
		if (model.startsWith(key) && (!best || key.length > best.length)) best = { length: key.length, value };
	return best?.value;
}

/** The context the GM plans for with this provider and model (see the order at the top). */
export function contextTokensFor(cfg: ContextTokensConfig, provider: ProviderName, model: string): number {
	const own = longestPrefix(
		cfg.pairs.filter((p) => p.provider === provider).map((p) => [p.model, p.tokens] as const),
		model
	);
	const any = longestPrefix(
		cfg.pairs.filter((p) => p.provider === undefined).map((p) => [p.model, p.tokens] as const),
		model
	);
	return own ?? any ?? cfg.fallback ?? longestPrefix(Object.entries(KNOWN_CONTEXT_TOKENS), model) ?? UNKNOWN_MODEL_CONTEXT_TOKENS;
}

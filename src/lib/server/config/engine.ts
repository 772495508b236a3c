/**
 * Turn engine, memory and budget settings. Limits come only from here (seed 002: the numbers are
 * the operator's decision, never the code's). Zero or negative window/threshold stop start-up.
 */
import * as v from 'valibot';
import { dollars, NonNegativeInt, PositiveInt } from './env-values';
import { readFileSync } from 'node:fs';
import { DEFAULT_PRICES, PriceTableSchema, dollarsToMicros, type PriceTable } from './prices';
import { CONTEXT_ENV_ENTRIES, type ContextTokensConfig } from './context';

const Dollars = dollars('0.50');

/** Spread into the environment schema of config/index.ts. */
export const ENGINE_ENV_ENTRIES = {
	/** History since the last checkpoint above this many tokens triggers a checkpoint turn. */
	KANTERA_CHECKPOINT_TOKENS: v.optional(PositiveInt, '6000'),
	/** Whole exchanges of recent conversation kept verbatim in the context. */
	KANTERA_WINDOW_EXCHANGES: v.optional(PositiveInt, '8'),
	/** ...and no more tokens of them than this (the newest exchange is always kept). */
	KANTERA_WINDOW_TOKENS: v.optional(PositiveInt, '1500'),
	/** The models' context sizes (config/context.ts). */
	...CONTEXT_ENV_ENTRIES,
	/** LLM calls (tool rounds) one turn may make. */
	KANTERA_MAX_TOOL_ROUNDS: v.optional(PositiveInt, '8'),
	/** Longest player input, in characters. */
	KANTERA_MAX_INPUT_CHARS: v.optional(PositiveInt, '4000'),
	/** The whole turn (every LLM call, retry and tool round) must end within this many seconds, or it fails as timed out. */
	KANTERA_TURN_TIMEOUT_S: v.optional(PositiveInt, '120'),
	/** Turns each user may start per UTC day; 0 turns the quota off. */
	KANTERA_FREE_TURNS_PER_DAY: v.optional(NonNegativeInt, '50'),
	KANTERA_BUDGET_TURN_USD: v.optional(Dollars),
	KANTERA_BUDGET_TURN_WARN_USD: v.optional(Dollars),
	KANTERA_BUDGET_SESSION_USD: v.optional(Dollars),
	KANTERA_BUDGET_SESSION_WARN_USD: v.optional(Dollars),
	KANTERA_BUDGET_USER_DAY_USD: v.optional(Dollars),
	KANTERA_BUDGET_USER_DAY_WARN_USD: v.optional(Dollars),
	KANTERA_BUDGET_GLOBAL_MONTH_USD: v.optional(Dollars),
	KANTERA_BUDGET_GLOBAL_MONTH_WARN_USD: v.optional(Dollars),
	/** JSON file `{ "model-id": { "input": 2, "output": 8, "cachedInput": 0.5 } }` (USD per million tokens), merged over the defaults. */
	KANTERA_PRICES_FILE: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)))
};

const MS_PER_SECOND = 1000;

type EngineEnv = v.InferOutput<v.ObjectSchema<typeof ENGINE_ENV_ENTRIES, undefined>>;

/** Money limits in micro-dollars; undefined = no limit / no warning. */
interface MoneyLimit {
	limit: number | undefined;
	warnAt: number | undefined;
}

export interface EngineConfig {
	memory: { checkpointTokens: number; windowExchanges: number; windowTokens: number };
	/** KANTERA_CONTEXT_TOKENS: what each model's context holds, read with `contextTokensFor`. */
	context: ContextTokensConfig;
	maxToolRounds: number;
	maxInputChars: number;
	/** Deadline of a whole turn, in milliseconds. */
	turnTimeoutMs: number;
	freeTurnsPerDay: number;
	budget: { turn: MoneyLimit; session: MoneyLimit; userDay: MoneyLimit; globalMonth: MoneyLimit };
	prices: PriceTable;
}

function money(limit: number | undefined, warn: number | undefined): MoneyLimit {
	return {
		limit: limit === undefined ? undefined : dollarsToMicros(limit),
		warnAt: warn === undefined ? undefined : dollarsToMicros(warn)
	};
}

function readPrices(file: string | undefined): { table: PriceTable } | { error: string } {
	if (!file) return { table: DEFAULT_PRICES };
	let raw: unknown;
	try {
		raw = JSON.parse(readFileSync(file, 'utf8'));
	} catch (err) {
		return { error: `KANTERA_PRICES_FILE: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` };
	}
	const parsed = v.safeParse(PriceTableSchema, raw);
	if (!parsed.success) {
		const issue = parsed.issues[0];
		const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
		return { error: `KANTERA_PRICES_FILE: ${where ? `${where}: ` : ''}${issue.message}` };
	}
	return { table: { ...DEFAULT_PRICES, ...parsed.output } };
}

export function engineConfig(e: EngineEnv): EngineConfig | { error: string } {
	const prices = readPrices(e.KANTERA_PRICES_FILE);
	if ('error' in prices) return prices;
	return {
		memory: {
			checkpointTokens: e.KANTERA_CHECKPOINT_TOKENS,
			windowExchanges: e.KANTERA_WINDOW_EXCHANGES,
			windowTokens: e.KANTERA_WINDOW_TOKENS
		},
		context: e.KANTERA_CONTEXT_TOKENS ?? { fallback: undefined, pairs: [] },
		maxToolRounds: e.KANTERA_MAX_TOOL_ROUNDS,
		maxInputChars: e.KANTERA_MAX_INPUT_CHARS,
		turnTimeoutMs: e.KANTERA_TURN_TIMEOUT_S * MS_PER_SECOND,
		freeTurnsPerDay: e.KANTERA_FREE_TURNS_PER_DAY,
		budget: {
			turn: money(e.KANTERA_BUDGET_TURN_USD, e.KANTERA_BUDGET_TURN_WARN_USD),
			session: money(e.KANTERA_BUDGET_SESSION_USD, e.KANTERA_BUDGET_SESSION_WARN_USD),
			userDay: money(e.KANTERA_BUDGET_USER_DAY_USD, e.KANTERA_BUDGET_USER_DAY_WARN_USD),
			globalMonth: money(e.KANTERA_BUDGET_GLOBAL_MONTH_USD, e.KANTERA_BUDGET_GLOBAL_MONTH_WARN_USD)
		},
		prices: prices.table
	};
}

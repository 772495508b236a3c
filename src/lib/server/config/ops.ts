/**
 * Operations: the Prometheus scrape token, the format and level of the structured log lines, and how long
 * the LLM call log keeps its rows.
 */
import * as v from 'valibot';
import { PositiveInt } from './env-values';

/** Spread into the environment schema of config/index.ts. */
export const OPS_ENV_ENTRIES = {
	/**
	 * The operator's token for `GET /metrics` (sent as `Authorization: Bearer …`); unset, the endpoint does
	 * not exist (404). Long and random: it guards figures about every player's activity.
	 */
	KANTERA_METRICS_TOKEN: v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.minLength(16, 'must be at least 16 characters (a long random secret, e.g. `openssl rand -hex 32`)'),
			v.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in an HTTP header)')
		)
	),
	/** One line per request and per turn on stdout: `json` (one object a line, for log shippers) or `text`. */
	KANTERA_LOG_FORMAT: v.optional(v.picklist(['json', 'text'], 'must be json or text'), 'json'),
	/**
	 * `info` writes those lines; `warn` leaves them out and keeps warnings and errors (stderr): for
	 * benchmarks and test servers, whose output would otherwise be a line per request.
	 */
	KANTERA_LOG_LEVEL: v.optional(v.picklist(['info', 'warn'], 'must be info or warn'), 'info'),
	/**
	 * Days the LLM call log (`llm_calls`, what /admin/usage reads) keeps a row; older ones are deleted by a
	 * job of the server a few times a day. Unset: kept forever. The daily totals that quotas and budgets
	 * read are other tables, never pruned by this.
	 */
	KANTERA_CALL_LOG_DAYS: v.optional(PositiveInt)
};

export type LogFormat = 'json' | 'text';
export type LogLevel = 'info' | 'warn';

export interface OpsConfig {
	metricsToken: string | undefined;
	logFormat: LogFormat;
	logLevel: LogLevel;
	/** Undefined: the call log is kept forever. */
	callLogDays: number | undefined;
}

type OpsEnv = v.InferOutput<v.ObjectSchema<typeof OPS_ENV_ENTRIES, undefined>>;

export function opsConfig(e: OpsEnv): OpsConfig {
	return {
		metricsToken: e.KANTERA_METRICS_TOKEN,
		logFormat: e.KANTERA_LOG_FORMAT,
		logLevel: e.KANTERA_LOG_LEVEL,
		callLogDays: e.KANTERA_CALL_LOG_DAYS
	};
}

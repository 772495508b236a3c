/**
 * Typed LLM errors. Callers branch on `kind` (what went wrong) and `retryable` (whether the same request might
 * succeed later). Messages name the provider and the HTTP status, never a key.
 */
import { isRetryableStatus } from '../retry';
import type { ProviderName } from './types';

export type LlmErrorKind = 'auth' | 'rate_limit' | 'server' | 'timeout' | 'aborted' | 'bad_request' | 'network' | 'protocol' | 'config';

export interface LlmErrorOptions {
	provider?: ProviderName;
	status?: number;
	retryable?: boolean;
	/** Milliseconds the server asked us to wait (Retry-After), when it said. */
	retryAfterMs?: number;
	cause?: unknown;
}

const RETRYABLE_BY_DEFAULT: Record<LlmErrorKind, boolean> = {
	auth: false,
	rate_limit: true,
	server: true,
	timeout: true,
	aborted: false,
	bad_request: false,
	network: true,
	protocol: false,
	config: false
};

export class LlmError extends Error {
	readonly kind: LlmErrorKind;
	readonly retryable: boolean;
	readonly provider: ProviderName | undefined;
	readonly status: number | undefined;
	readonly retryAfterMs: number | undefined;

	constructor(kind: LlmErrorKind, message: string, options: LlmErrorOptions = {}) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.name = 'LlmError';
		this.kind = kind;
		this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT[kind];
		this.provider = options.provider;
		this.status = options.status;
		this.retryAfterMs = options.retryAfterMs;
	}
}

/** The caller's AbortSignal fired. Never retried. */
export class LlmAbortedError extends LlmError {
	constructor(provider?: ProviderName) {
		super('aborted', 'The LLM request was cancelled.', { provider });
		this.name = 'LlmAbortedError';
	}
}

/** Which clock ran out: waiting for the response headers, waiting between stream chunks, or the whole call. */
export type TimeoutPhase = 'request' | 'idle' | 'deadline';

export class LlmTimeoutError extends LlmError {
	readonly phase: TimeoutPhase;
	constructor(phase: TimeoutPhase, ms: number, provider?: ProviderName) {
		const what = {
			request: `The LLM server did not answer within ${ms} ms.`,
			idle: `The LLM stream went silent for ${ms} ms.`,
			deadline: `The LLM call did not finish within its ${ms} ms deadline.`
		}[phase];
		// The whole-call deadline is final; a single slow attempt may go better the next time.
		super('timeout', what, { provider, retryable: phase !== 'deadline' });
		this.name = 'LlmTimeoutError';
		this.phase = phase;
	}
}

/** Settings that cannot work (no key for a provider that needs one, a bad base URL). */
export class LlmConfigError extends LlmError {
	constructor(message: string, provider?: ProviderName) {
		super('config', message, { provider });
		this.name = 'LlmConfigError';
	}
}

/** How messages name each vendor's server. */
const SERVER_NAME: Record<ProviderName, string> = {
	openai: 'The OpenAI-compatible server',
	anthropic: 'The Anthropic server',
	google: 'The Google (Gemini) server'
};

/** Maps an HTTP status from the provider to an error kind; the SDKs' error classes carry the status. */
export function errorFromStatus(
	provider: ProviderName,
	status: number,
	detail: string,
	options: { retryAfterMs?: number; cause?: unknown } = {}
): LlmError {
	const who = SERVER_NAME[provider];
	const suffix = detail ? `: ${detail}` : '';
	const base = { provider, status, retryable: isRetryableStatus(status), ...options };
	if (status === 401 || status === 403) return new LlmError('auth', `${who} rejected the API key (${status})${suffix}`, base);
	if (status === 429) return new LlmError('rate_limit', `${who} is rate-limiting us (429)${suffix}`, base);
	if (status === 408) return new LlmError('timeout', `${who} timed out the request (408)${suffix}`, base);
	// 409 is a lock conflict that both vendors document as safe to retry; 5xx and Anthropic's 529 are outages
	// (which of them is retried is the retry policy's isRetryableStatus).
	if (status === 409 || status >= 500) return new LlmError('server', `${who} failed (${status})${suffix}`, base);
	return new LlmError('bad_request', `${who} refused the request (${status})${suffix}`, base);
}

/** Longest detail kept from a server's error message, so one huge HTML error page can't flood the logs. */
const MAX_DETAIL_CHARS = 300;

export function shortDetail(text: string | null | undefined): string {
	if (!text) return '';
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS)}…` : flat;
}

/** Anything else thrown while talking to the server: a refused connection, a socket closed mid-stream. */
export function networkError(provider: ProviderName, error: unknown): LlmError {
	const who = SERVER_NAME[provider].replace(/^The/, 'the');
	const detail = error instanceof Error ? shortDetail(describeCause(error)) : 'unknown error';
	return new LlmError('network', `Lost the connection to ${who}: ${detail}`, { provider, cause: error });
}

/** An error's message with its cause's, as fetch's "fetch failed" says nothing without it. */
export function describeCause(error: Error): string {
	const cause: unknown = error.cause;
	return cause instanceof Error && cause.message ? `${error.message} (${cause.message})` : error.message;
}

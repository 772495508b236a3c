/**
 * The `openai` SDK for OpenAI's request/response endpoints besides chat (embeddings, images), against OpenAI itself
 * or any server speaking its wire format, and what a failed call means. Here so that llm stays the one folder that
 * imports an LLM SDK. The SDK never retries (`maxRetries: 0`): the caller's retry policy (server/retry) decides,
 * from the `retryable` and `retryAfterMs` of the failure.
 */
import OpenAI, { APIError } from 'openai';
import { isRetryableStatus, retryAfterMs } from '../retry';
import { describeCause, shortDetail } from './errors';
import { apiMessage, OPENAI_PLACEHOLDER_KEY } from './openai';

export type OpenAiEndpointClient = OpenAI;

export interface OpenAiEndpointOptions {
	/** Up to and including `/v1`; the SDK appends `/embeddings` or `/images/generations`. */
	baseUrl: string;
	/** Undefined for a server that needs none: then no Authorization header is sent at all. */
	apiKey: string | undefined;
}

export function createOpenAiEndpointClient(options: OpenAiEndpointOptions): OpenAiEndpointClient {
	return new OpenAI({
		// The SDK insists on a key; for a keyless server a null default header takes the placeholder's Bearer line out.
		apiKey: options.apiKey ?? OPENAI_PLACEHOLDER_KEY,
		...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
		baseURL: options.baseUrl,
		maxRetries: 0,
		// Explicit nulls keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID behind config's back.
		organization: null,
		project: null
	});
}

/** A failed call, in words that follow "<what> request to <url>". */
interface OpenAiCallFailure {
	/** e.g. `answered 429: slow down`, `failed: timed out after 30000 ms`. */
	detail: string;
	status?: number;
	retryable: boolean;
	retryAfterMs?: number;
}

export type OpenAiCallResult<T> = { ok: true; value: T } | { ok: false; failure: OpenAiCallFailure };

/**
 * Runs one SDK call under a time limit for the whole call (the SDK's own timeout ends at the response headers;
 * this one covers reading the body too). The caller's abort is final: its reason is thrown as it is. Any other
 * failure comes back described, for the caller to wrap in its own error class.
 */
export async function callOpenAiEndpoint<T>(
	run: (options: { signal: AbortSignal; timeout: number }) => Promise<T>,
	signal: AbortSignal | undefined,
	timeoutMs: number
): Promise<OpenAiCallResult<T>> {
	const timeout = AbortSignal.timeout(timeoutMs);
	try {
		return { ok: true, value: await run({ signal: signal ? AbortSignal.any([signal, timeout]) : timeout, timeout: timeoutMs }) };
	} catch (error) {
		if (signal?.aborted) throw signal.reason;
		if (timeout.aborted) return { ok: false, failure: { detail: `failed: timed out after ${timeoutMs} ms`, retryable: true } };
		return { ok: false, failure: describeFailure(error) };
	}
}

function describeFailure(error: unknown): OpenAiCallFailure {
	if (error instanceof APIError) {
		// Read into typed locals: the SDK types these fields generically.
		const status: unknown = error.status;
		const headers: unknown = error.headers;
		const body: unknown = error.error;
		if (typeof status === 'number') {
			const message = shortDetail(apiMessage(body, error.message));
			return {
				detail: `answered ${status}${message ? `: ${message}` : ''}`,
				status,
				retryable: isRetryableStatus(status),
				retryAfterMs: retryAfterMs(headers instanceof Headers ? headers : undefined)
			};
		}
	}
	// A 200 whose body is not JSON: the server is not speaking the wire format, and won't the next time either.
	if (error instanceof SyntaxError) return { detail: 'sent a response that is not JSON', retryable: false };
	// A refused connection or a socket closed before the answer (the SDK's APIConnectionError): worth another try.
	return { detail: `failed: ${error instanceof Error ? shortDetail(describeCause(error)) : String(error)}`, retryable: true };
}

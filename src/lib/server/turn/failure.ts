/**
 * How a failed turn is told. The player (turn API, event stream, play page) gets its class and an
 * error id, worded by the client; the provider's own message never leaves the server, because some
 * providers quote the request back in their errors, and the request holds the GM-only story. The
 * operator finds the details in the server log under the same error id, bounded and without bodies.
 */
import type { FailureClass, TurnFailure } from '../../types/events';
import { translate } from '../../i18n/all-languages';
import { newId } from '../db';
import { LlmError, type LlmErrorKind } from '../llm';
import { ContextTooSmallError } from '../context-window';
import { CanonStoppedError } from '../canon';

/** Long enough to be unique in any log, short enough to read out to an operator. */
export const ERROR_ID_LENGTH = 10;
/** Longest piece of a provider's message the server log keeps. */
export const MAX_LOGGED_DETAIL_CHARS = 300;

/** The turn ran past its deadline (KANTERA_TURN_TIMEOUT_S). */
export class TurnDeadlineError extends Error {
	constructor(readonly ms: number) {
		super(`the turn did not finish within its ${ms} ms deadline`);
		this.name = 'TurnDeadlineError';
	}
}

const BY_LLM_KIND: Record<LlmErrorKind, FailureClass> = {
	rate_limit: 'rate_limited',
	server: 'provider_unavailable',
	network: 'provider_unavailable',
	timeout: 'timed_out',
	bad_request: 'refused',
	auth: 'misconfigured',
	config: 'misconfigured',
	protocol: 'protocol_error',
	// Only reached when the caller's signal fired without a cancel or a deadline behind it.
	aborted: 'internal'
};

export interface ClassifiedFailure {
	reason: FailureClass;
	/** Whether sending the same line again may work. */
	retryable: boolean;
}

export function classifyFailure(err: unknown): ClassifiedFailure {
	if (err instanceof TurnDeadlineError) return { reason: 'timed_out', retryable: true };
	// The GM's words kept giving something away: the same line may well go through on another try.
	if (err instanceof CanonStoppedError) return { reason: 'withheld', retryable: true };
	if (err instanceof LlmError) return { reason: BY_LLM_KIND[err.kind], retryable: err.retryable };
	// The input (with the mission and the tools) is longer than the model can read: the player words it shorter.
	if (err instanceof ContextTooSmallError) return { reason: 'refused', retryable: false };
	return { reason: 'internal', retryable: false };
}

export function newErrorId(): string {
	return newId(ERROR_ID_LENGTH);
}

/** The fixed words the API gives for a failure (English; the play page words it in the reader's language). */
export function failureMessage(failure: TurnFailure): string {
	return `${translate('en', `turn.failure.${failure.reason}`)} ${translate('en', 'turn.failure.errorId', { id: failure.errorId })}`;
}

/**
 * What the server log keeps of an error: its kind, provider and status, and its message bounded, with
 * any JSON or HTML body the provider sent cut out.
 */
export function logDetail(err: unknown): string {
	if (!(err instanceof Error)) return 'non-error thrown';
	const facts =
		err instanceof LlmError
			? [`kind=${err.kind}`, err.provider && `provider=${err.provider}`, err.status !== undefined && `status=${err.status}`]
					.filter(Boolean)
					.join(' ')
			: err.name;
	const flat = err.message
		.replace(/\{[\s\S]*\}/g, '[body]')
		.replace(/<[\s\S]*>/g, '[body]')
		.replace(/\s+/g, ' ')
		.trim();
	const message = flat.length > MAX_LOGGED_DETAIL_CHARS ? `${flat.slice(0, MAX_LOGGED_DETAIL_CHARS)}…` : flat;
	return `${facts}: ${message}`;
}

export function logFailure(where: { sessionId: string; turnId: string }, failure: TurnFailure, err: unknown): void {
	console.error(
		`[kantera] turn ${where.turnId} of session ${where.sessionId} failed (${failure.reason}, error id ${failure.errorId}): ${logDetail(err)}`
	);
}

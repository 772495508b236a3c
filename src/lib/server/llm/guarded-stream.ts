/**
 * The provider-independent half of every stream: timeouts, caller abort, and bounded retries.
 *
 * The SDKs' own retry loops are switched off (`maxRetries: 0`) and the server's one retry policy used instead, so
 * that both providers share numbers tests can shrink, a retry only happens while nothing has reached the caller yet
 * (a half-told reply is never told twice), and the idle and whole-call clocks, which the SDKs don't have, see
 * every attempt.
 */
import { decideRetry, sleep, type RetryPolicy } from '../retry';
import { LlmAbortedError, LlmError, LlmTimeoutError } from './errors';
import type { LlmEvent, ProviderName } from './types';

export interface LlmTimeouts {
	/** From sending a request until the response headers arrive. */
	requestMs: number;
	/** Longest silence between two stream chunks once the response has started. */
	idleMs: number;
	/** The whole call, every attempt and backoff included: a stream that never ends still ends here. */
	deadlineMs: number;
}

/** The retry policy of an LLM call; a Retry-After longer than maxDelayMs ends the call at once. */
export type LlmRetryPolicy = RetryPolicy;

// Generous on purpose: a large model may think for a minute before its first token.
export const DEFAULT_TIMEOUTS: Readonly<LlmTimeouts> = Object.freeze({ requestMs: 60_000, idleMs: 90_000, deadlineMs: 600_000 });
export const DEFAULT_RETRY: Readonly<LlmRetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000 });

/** Turns the chunks of one response into events; `end()` throws an LlmError when the response stopped short. */
export interface StreamDecoder<Chunk> {
	push(chunk: Chunk): LlmEvent[];
	end(): LlmEvent[];
}

export interface GuardedStreamSpec<Chunk> {
	provider: ProviderName;
	signal: AbortSignal | undefined;
	timeouts: LlmTimeouts;
	retry: LlmRetryPolicy;
	/** Sends the request; resolves once the response headers are in. Must honour `signal`. */
	open(signal: AbortSignal): Promise<AsyncIterable<Chunk>>;
	newDecoder(): StreamDecoder<Chunk>;
	/** Maps an SDK or network error to an LlmError. */
	classify(error: unknown): LlmError;
	/** For tests: the source of jitter. */
	random?: () => number;
	/** Told before each retry (metering counts them). */
	onRetry?: (error: LlmError) => void;
}

export async function* guardedStream<Chunk>(spec: GuardedStreamSpec<Chunk>): AsyncGenerator<LlmEvent, void, undefined> {
	const { provider, timeouts, retry } = spec;
	if (spec.signal?.aborted) throw new LlmAbortedError(provider);
	const call = new CallGuard(provider, spec.signal, timeouts.deadlineMs);
	try {
		for (let attempt = 0; ; attempt++) {
			const guard = new AttemptGuard(call, provider, timeouts);
			let yielded = false;
			try {
				const source = await spec.open(guard.signal);
				guard.responseStarted();
				const decoder = spec.newDecoder();
				for await (const chunk of source) {
					// The SDK may still hand out chunks it had buffered before an abort: nothing is yielded after one.
					guard.throwIfStopped();
					guard.activity();
					for (const event of decoder.push(chunk)) {
						// The caller's own pace must not count as the server's silence.
						guard.pauseIdle();
						yielded = true;
						yield event;
						guard.throwIfStopped();
						guard.activity();
					}
				}
				// The SDKs end an aborted stream quietly; the reason is ours to report.
				guard.throwIfStopped();
				for (const event of decoder.end()) {
					yielded = true;
					yield event;
				}
				return;
			} catch (error) {
				const failure = guard.stopError ?? (error instanceof LlmError ? error : spec.classify(error));
				if (yielded) throw failure;
				const decision = decideRetry(failure, attempt, retry, { random: spec.random, remainingMs: call.remainingMs() });
				if (!decision.retry) throw failure;
				spec.onRetry?.(failure);
				await call.sleep(decision.delayMs);
			} finally {
				guard.dispose();
			}
		}
	} finally {
		call.dispose();
	}
}

/** The whole call: the caller's signal and the deadline. */
class CallGuard {
	private error: LlmError | undefined;
	/** Aborted, with the LlmError as its reason, when the call stops: ends a wait between attempts at once. */
	private readonly stopping = new AbortController();
	private readonly listeners = new Set<(error: LlmError) => void>();
	private readonly deadlineAt: number;
	private readonly deadlineTimer: ReturnType<typeof setTimeout>;
	private readonly onCallerAbort: () => void;

	constructor(
		provider: ProviderName,
		private readonly signal: AbortSignal | undefined,
		deadlineMs: number
	) {
		this.deadlineAt = Date.now() + deadlineMs;
		this.deadlineTimer = setTimeout(() => this.stop(new LlmTimeoutError('deadline', deadlineMs, provider)), deadlineMs);
		this.onCallerAbort = () => this.stop(new LlmAbortedError(provider));
		signal?.addEventListener('abort', this.onCallerAbort, { once: true });
	}

	get stopped(): LlmError | undefined {
		return this.error;
	}

	remainingMs(): number {
		return this.deadlineAt - Date.now();
	}

	onStop(listener: (error: LlmError) => void): () => void {
		if (this.error) listener(this.error);
		else this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Waits between attempts; a caller abort or the deadline ends the wait at once, with its LlmError. */
	sleep(ms: number): Promise<void> {
		return sleep(ms, this.stopping.signal);
	}

	dispose(): void {
		clearTimeout(this.deadlineTimer);
		this.signal?.removeEventListener('abort', this.onCallerAbort);
		this.listeners.clear();
	}

	private stop(error: LlmError): void {
		if (this.error) return;
		this.error = error;
		this.stopping.abort(error);
		for (const listener of [...this.listeners]) listener(error);
	}
}

/** One HTTP attempt: its own abort controller, the request clock and the idle clock. */
class AttemptGuard {
	private readonly controller = new AbortController();
	private error: LlmError | undefined;
	private requestTimer: ReturnType<typeof setTimeout> | undefined;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	private readonly offCallStop: () => void;

	constructor(
		call: CallGuard,
		private readonly provider: ProviderName,
		private readonly timeouts: LlmTimeouts
	) {
		this.offCallStop = call.onStop((error) => this.abort(error));
		this.requestTimer = setTimeout(() => this.abort(new LlmTimeoutError('request', timeouts.requestMs, provider)), timeouts.requestMs);
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get stopError(): LlmError | undefined {
		return this.error;
	}

	responseStarted(): void {
		clearTimeout(this.requestTimer);
		this.requestTimer = undefined;
		this.activity();
	}

	activity(): void {
		this.pauseIdle();
		if (this.error) return;
		this.idleTimer = setTimeout(() => this.abort(new LlmTimeoutError('idle', this.timeouts.idleMs, this.provider)), this.timeouts.idleMs);
	}

	pauseIdle(): void {
		clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
	}

	throwIfStopped(): void {
		if (this.error) throw this.error;
	}

	dispose(): void {
		clearTimeout(this.requestTimer);
		this.pauseIdle();
		this.offCallStop();
		// Closes the connection if the caller walked away mid-stream; a no-op after a normal end.
		if (!this.controller.signal.aborted) this.controller.abort();
	}

	private abort(error: LlmError): void {
		if (this.error) return;
		this.error = error;
		clearTimeout(this.requestTimer);
		this.pauseIdle();
		this.controller.abort(error);
	}
}

/**
 * SQLite's "busy" (SQLITE_BUSY and its extended codes, SQLITE_BUSY_SNAPSHOT included) and what is done
 * about it. Busy means the statement could not take a lock it needed (another connection or instance
 * holds the write lock past the wait a local file's busy timeout or a libSQL server allows, or a
 * deferred transaction's read snapshot went stale before its first write) and ran nothing: a single
 * statement, or a batch (one transaction, rolled back whole), can always be started again. So every
 * client this module wraps starts them again under the project's retry policy (retry/), with backoff
 * and jitter so that instances that collided do not collide again in step. An interactive transaction
 * is started again only when busy came before its work began (write-lock.ts).
 */
import type { Client } from '@libsql/client';
import { withRetry, type RetryPolicy } from '../retry';

/**
 * Attempts after a busy failure: backoff from 25 ms doubling to 1 s, at most ~3.6 s of waiting in all.
 * Each attempt may itself wait for the lock (5 s on a local file, the server's queue on a remote one).
 */
export const BUSY_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 8, baseDelayMs: 25, maxDelayMs: 1_000 });

/** Whether `err` is SQLite's "busy" (any extended code: BUSY, BUSY_SNAPSHOT, BUSY_RECOVERY…). */
export function isBusy(err: unknown): boolean {
	if (!(err instanceof Error)) return false;
	const raw = 'rawCode' in err ? err.rawCode : undefined;
	// Extended result codes keep the primary code (SQLITE_BUSY = 5) in their low byte.
	if (typeof raw === 'number') return raw % 256 === 5;
	const code = 'code' in err ? err.code : undefined;
	return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export interface RetryBusyOptions {
	/** Which failures may start again (default: any busy one). */
	retryable?: (err: unknown) => boolean;
	policy?: RetryPolicy;
}

/** Runs `attempt` again while it fails busy (and `retryable` agrees), under BUSY_RETRY; the last failure is thrown unchanged. */
export function retryBusy<T>(attempt: () => Promise<T>, options: RetryBusyOptions = {}): Promise<T> {
	const retryable = options.retryable ?? isBusy;
	return withRetry(attempt, { policy: options.policy ?? BUSY_RETRY, classify: (err) => ({ retryable: retryable(err) }) });
}

/**
 * The client, except that `execute` and `batch` are started again when they fail busy. Transactions
 * pass through: whether one may start again depends on how far it got (write-lock.ts).
 */
export function busyRetrying(client: Client): Client {
	return new Proxy(client, {
		get: (target, prop): unknown => {
			const value: unknown = Reflect.get(target, prop, target);
			if (typeof value !== 'function') return value;
			// The native client keeps its state in private fields: its methods must run on it, not on the proxy.
			const method = (...args: unknown[]): unknown => Reflect.apply(value, target, args);
			if (prop === 'execute' || prop === 'batch') return (...args: unknown[]) => retryBusy(() => Promise.resolve(method(...args)));
			return method;
		}
	});
}

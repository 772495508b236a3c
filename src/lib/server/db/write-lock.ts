/**
 * Taking a database's write lock (`BEGIN IMMEDIATE`) when more than one client writes it.
 *
 * Why not just SQLite's busy timeout: the native driver waits for a lock synchronously, inside the
 * call, so while it waits nothing else in this process runs. Two clients of one file in one process
 * (two app instances, a CLI next to a server in tests) then deadlock: the one waiting blocks the one
 * holding the lock from ever committing, until the timeout fails the `BEGIN`. And a failed `BEGIN
 * IMMEDIATE` poisons its connection: the driver does not reset the statement, so the connection keeps
 * its read snapshot, and every later `BEGIN IMMEDIATE` on it fails at once with SQLITE_BUSY or
 * SQLITE_BUSY_SNAPSHOT (517), which the busy timeout never retries, and a COMMIT fails with "SQL
 * statements in progress".
 *
 * So write transactions on one database queue here, per database URL and process-wide (not per
 * client): in this process they never meet at SQLite's lock. Another process (or instance, on a remote
 * database) is still waited for by the busy timeout or the server; and a `BEGIN` that fails busy anyway
 * (nothing ran yet) is started again under the busy retry policy (busy.ts).
 */
import { BUSY_RETRY, isBusy, retryBusy } from './busy';
import type { RetryPolicy } from '../retry';

/** The tail of each database's queue of write transactions in this process, by URL. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` once every write transaction queued before it on database `key` (its URL) has ended. */
export function queueWrite<T>(key: string, fn: () => Promise<T>): Promise<T> {
	const run = (queues.get(key) ?? Promise.resolve()).then(fn);
	// The chain must survive a failed transaction; callers still see the failure through `run`.
	const tail = run.catch(() => undefined);
	queues.set(key, tail);
	void tail.then(() => {
		if (queues.get(key) === tail) queues.delete(key);
	});
	return run;
}

/**
 * Runs `begin` (which opens a write transaction and runs the caller's work in it, calling `started`
 * first thing), starting again after a pause when the lock could not be taken. A busy error after
 * `started` (at COMMIT, say) is let through: the work may have had effects outside the database.
 */
export function withWriteLock<T>(begin: (started: () => void) => Promise<T>, policy: RetryPolicy = BUSY_RETRY): Promise<T> {
	// An object, not a local: `started` flips it from inside the callback, out of the type checker's sight.
	const state = { began: false };
	return retryBusy(
		() => {
			state.began = false;
			return begin(() => {
				state.began = true;
			});
		},
		{ policy, retryable: (err) => !state.began && isBusy(err) }
	);
}

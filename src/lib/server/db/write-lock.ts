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
 * client): in this process they never meet at SQLite's lock. Another process is still waited for by
 * the busy timeout; and a `BEGIN` that fails busy anyway (nothing ran yet) is started again after a
 * short, growing pause.
 */

/** Attempts at taking the write lock before the error is let through. */
const WRITE_LOCK_ATTEMPTS = 6;
/** First pause between attempts; it doubles each time, with jitter (6 attempts pause ~0.3 s at most). */
const WRITE_LOCK_BACKOFF_MS = 10;

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

/** Whether `err` is SQLite's "busy" (any extended code: BUSY, BUSY_SNAPSHOT, BUSY_RECOVERY…). */
export function isBusy(err: unknown): boolean {
	if (!(err instanceof Error)) return false;
	const raw = 'rawCode' in err ? err.rawCode : undefined;
	// Extended result codes keep the primary code (SQLITE_BUSY = 5) in their low byte.
	if (typeof raw === 'number') return raw % 256 === 5;
	const code = 'code' in err ? err.code : undefined;
	return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `begin` (which opens a write transaction and runs the caller's work in it, calling `started`
 * first thing), starting again after a pause when the lock could not be taken. A busy error after
 * `started` (at COMMIT, say) is let through: the work may have had effects outside the database.
 */
export async function withWriteLock<T>(begin: (started: () => void) => Promise<T>, attempts = WRITE_LOCK_ATTEMPTS): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		// An object, not a local: `started` flips it from inside the callback, out of the type checker's sight.
		const state = { began: false };
		try {
			return await begin(() => {
				state.began = true;
			});
		} catch (err) {
			if (state.began || attempt >= attempts || !isBusy(err)) throw err;
			const pause = WRITE_LOCK_BACKOFF_MS * 2 ** (attempt - 1);
			await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
		}
	}
}

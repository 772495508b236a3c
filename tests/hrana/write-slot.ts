/**
 * One database's write lock as a libSQL server hands it out: writers queue for it, first come first
 * served, and wait (without failing) while another connection holds it; readers never queue. sqld does
 * this in its connection manager (a slot taken when a connection begins a write transaction, given to
 * the next in line when that transaction ends), so a client of a real server never sees SQLITE_BUSY
 * for a lock another stream holds for a moment.
 *
 * Why the test server needs it, rather than SQLite's busy handling: its connections share one thread,
 * so it cannot let SQLite wait for a lock (busy_timeout 0, see sql.ts); and a statement that fails busy
 * is left unfinished by the `libsql` driver, which keeps the connection's read snapshot open and every
 * later COMMIT on it failing with "SQL statements in progress" until the statement object is garbage
 * collected. Retrying the statement on that connection (as this server once did) turned one collision
 * of two writers into stale reads and SQLITE_BUSY / SQLITE_BUSY_SNAPSHOT failures for seconds, on every
 * stream the pooled connection served next: failures no real server produces.
 */
import type { Connection } from './sql';

interface Waiter {
	conn: Connection;
	grant: () => void;
}

export class WriteSlot {
	private holder: Connection | undefined;
	private readonly queue: Waiter[] = [];

	/** `onWait`: told each time a connection has to queue behind another (the server's stats count it). */
	constructor(private readonly onWait: () => void) {}

	/** Resolves once `conn` holds the lock; rejects (nothing ran) when it is not free within `waitMs`. */
	acquire(conn: Connection, waitMs: number, busy: () => Error): Promise<void> {
		if (this.holder === undefined || this.holder === conn) {
			this.holder = conn;
			return Promise.resolve();
		}
		this.onWait();
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				conn,
				grant: () => {
					clearTimeout(timer);
					resolve();
				}
			};
			const timer = setTimeout(() => {
				this.queue.splice(this.queue.indexOf(waiter), 1);
				reject(busy());
			}, waitMs);
			this.queue.push(waiter);
		});
	}

	/** `conn` is out of its write transaction (or never began one): the next in line gets the lock. */
	release(conn: Connection): void {
		if (this.holder !== conn) return;
		const next = this.queue.shift();
		this.holder = next?.conn;
		next?.grant();
	}
}

/**
 * Whether a statement may take the write lock: anything but a query, a plain (deferred) BEGIN and the
 * ends of a transaction. A query inside a transaction that later writes takes the lock at that write,
 * as SQLite does.
 */
export function mayWrite(sql: string): boolean {
	const text = sql.replace(/^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*/, '');
	if (/^(?:SELECT|VALUES|EXPLAIN|COMMIT|END|ROLLBACK|RELEASE|SAVEPOINT)\b/i.test(text)) return false;
	if (/^BEGIN(?:\s+DEFERRED)?(?:\s+TRANSACTION)?\s*;?\s*$/i.test(text)) return false;
	if (/^PRAGMA\s+[\w.]+\s*(?:\([^)]*\))?\s*;?\s*$/i.test(text)) return false;
	if (/^WITH\b/i.test(text)) return /\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text);
	return true;
}

/**
 * The test server's connections to its database files: a few idle ones kept per database, each
 * database switched to WAL once, its write lock handed out in turn (write-slot.ts), and a connection a
 * statement failed busy on never handed out again.
 */
import { BusyError, openConnection, sqliteError, whenNotBusy, type Connection } from './sql';
import { WriteSlot } from './write-slot';

const MAX_IDLE_CONNECTIONS = 4;

/** What holds a connection while it works: a stream (its baton's requests), for as long as it lives. */
export interface Holder {
	readonly database: string;
	conn: Connection | undefined;
}

export interface ConnectionsOptions {
	fileOf: (database: string) => string;
	/** Whether the database still exists: a connection of a deleted one is closed, not kept. */
	exists: (database: string) => boolean;
	/** How long a statement waits for the write lock before it fails busy. */
	busyWaitMs: number;
	/** Told each time a statement has to queue behind another connection's write lock. */
	onWriteWait: () => void;
}

export class Connections {
	private readonly idle = new Map<string, Connection[]>();
	private readonly walReady = new Set<string>();
	private readonly slots = new Map<string, WriteSlot>();
	/** Connections a statement failed busy on: the driver left that statement unfinished (write-slot.ts). */
	private readonly spoiled = new WeakSet<Connection>();

	constructor(private readonly opts: ConnectionsOptions) {}

	/**
	 * Switches a database to WAL once (it stays so in the file). Not per connection: the switch needs a
	 * lock, and a connection opened while another holds the write lock would fail instead of waiting.
	 */
	async prepare(database: string): Promise<void> {
		if (this.walReady.has(database)) return;
		await whenNotBusy(() => {
			const conn = openConnection(this.opts.fileOf(database));
			try {
				conn.exec('PRAGMA journal_mode = WAL');
			} catch (err) {
				throw sqliteError(err);
			} finally {
				conn.close();
			}
		}, this.opts.busyWaitMs);
		this.walReady.add(database);
	}

	/** The holder's connection, taken from the idle ones (or opened) the first time it needs one. */
	of(holder: Holder): Connection {
		return (holder.conn ??= this.idle.get(holder.database)?.pop() ?? openConnection(this.opts.fileOf(holder.database)));
	}

	/** The holder is done: its transaction is rolled back, its write lock passed on, the connection kept for later or closed. */
	release(holder: Holder): void {
		const conn = holder.conn;
		if (!conn) return;
		holder.conn = undefined;
		const slot = this.slotOf(holder.database);
		try {
			if (conn.inTransaction) conn.exec('ROLLBACK');
		} catch {
			slot.release(conn);
			conn.close();
			return;
		}
		slot.release(conn);
		const list = this.idle.get(holder.database) ?? [];
		if (this.spoiled.has(conn) || list.length >= MAX_IDLE_CONNECTIONS || !this.opts.exists(holder.database)) {
			conn.close();
			return;
		}
		list.push(conn);
		this.idle.set(holder.database, list);
	}

	/**
	 * Runs one statement (or a `sequence`) on the holder's connection; one that may write first waits its
	 * turn for the database's write lock, which the connection keeps until it is out of its transaction.
	 * A statement that fails busy all the same (a lock taken outside the server) spoils its connection:
	 * outside a transaction nothing had begun, so it is started again on a fresh one.
	 */
	async run<T>(holder: Holder, write: boolean, statement: (conn: Connection) => T): Promise<T> {
		const slot = this.slotOf(holder.database);
		const deadline = Date.now() + this.opts.busyWaitMs;
		for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
			const conn = this.of(holder);
			if (write) await slot.acquire(conn, Math.max(0, deadline - Date.now()), () => new BusyError('database is locked', 'SQLITE_BUSY'));
			const began = conn.inTransaction;
			try {
				const result = statement(conn);
				if (!conn.inTransaction) slot.release(conn);
				return result;
			} catch (err) {
				if (!conn.inTransaction) slot.release(conn);
				if (!(err instanceof BusyError)) throw err;
				this.spoiled.add(conn);
				if (began || Date.now() >= deadline) throw err;
				holder.conn = undefined;
				conn.close();
			}
			await new Promise((r) => setTimeout(r, pause));
		}
	}

	/** Closes a database's idle connections and forgets it (the holders' own are released by their streams). */
	drop(database: string): void {
		for (const conn of this.idle.get(database) ?? []) conn.close();
		this.idle.delete(database);
		this.slots.delete(database);
		this.walReady.delete(database);
	}

	/** Every database with idle connections. */
	databases(): string[] {
		return [...this.idle.keys()];
	}

	private slotOf(database: string): WriteSlot {
		let slot = this.slots.get(database);
		if (!slot) this.slots.set(database, (slot = new WriteSlot(this.opts.onWriteWait)));
		return slot;
	}
}

/**
 * Per-session databases: one libSQL database per play session, located by its placement (a URL
 * template, or Turso's Platform API), migrated on open and kept in a bounded LRU cache so thousands of
 * sessions don't exhaust file handles.
 */
// drizzle's web entry wraps whichever client it is given; its default entry would load the native driver (client.ts).
import { drizzle } from 'drizzle-orm/libsql/web';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { Client, InStatement, ResultSet, Transaction } from '@libsql/client';
import type { BatchItem } from 'drizzle-orm/batch';
import * as sessionSchema from './session-schema';
import { sessionMigrations } from './migrations.generated';
import { MissingDatabaseError, migrateAndRead } from './migrate';
import { UNDO_TRIGGER_READS, undoTriggerChanges } from './undo-log';
import { fileDatabaseExists, isFileUrl, openClient, removeFileDatabase } from './client';
import { queueWrite, withWriteLock } from './write-lock';
import { copyDatabase, withoutUncopied } from './copy';
import { TemplatePlacement, type SessionPlacement } from './placement';
import type { Config } from '../config';

export type SessionDrizzle = LibSQLDatabase<typeof sessionSchema>;
export type SessionTx = Parameters<Parameters<SessionDrizzle['transaction']>[0]>[0];
/** Anything queries can run on: the database itself or an open transaction. */
export type SessionExec = SessionDrizzle | SessionTx;

/** Connections per session database: one writer plus a few readers is all a session needs. */
const SESSION_DB_CONCURRENCY = 3;

export interface SessionDb {
	readonly id: string;
	readonly client: Client;
	readonly db: SessionDrizzle;
	/**
	 * Runs `fn` in one write transaction. Writes to the same session are serialised in this process,
	 * so concurrent callers queue instead of failing on SQLITE_BUSY.
	 */
	write<T>(fn: (tx: SessionTx) => Promise<T>, options?: WriteOptions): Promise<T>;
	/**
	 * Runs statements inside the write transaction open on this session (call it from `write`'s callback,
	 * however deep) as one batch: one round trip to a remote database for statements built client-side,
	 * where the interactive transaction would send each on its own.
	 */
	readonly inWrite: TxBatch;
	/**
	 * Runs `statements` as one batch: one round trip to a remote database, one transaction (a durable
	 * commit for 'write'), all or nothing. A write batch queues with the write transactions above.
	 */
	batch(statements: InStatement[], mode: 'read' | 'write'): Promise<ResultSet[]>;
	/**
	 * drizzle's `batch` as a write batch: `s.writes.batch([s.writes.update(…), s.writes.insert(…), …])`
	 * builds the queries with drizzle (typed rows back, `returning` included) and runs them as `batch`
	 * does with 'write': one round trip, one durable transaction, queued with this session's writes.
	 */
	readonly writes: Pick<SessionDrizzle, 'batch' | 'insert' | 'update' | 'delete' | 'select' | 'run'>;
}

/** Runs statements as one batch inside a write transaction (`SessionDb.inWrite`). */
export type TxBatch = (statements: InStatement[]) => Promise<ResultSet[]>;

export interface WriteOptions {
	/**
	 * Hears every statement the transaction sends, in order, before it is sent (`undefined` for a call
	 * that is not one statement, which makes the recording incomplete): how a speculative run of staged
	 * writes is captured as a statement list (turn/staging.ts).
	 */
	record?: (statement: InStatement | undefined) => void;
}

/**
 * The client, except that its transactions tell `recorder()` (when set) each statement they run, and
 * each transaction it opens is handed to `opened`.
 */
function recordingClient(client: Client, recorder: () => WriteOptions['record'], opened: (tx: Transaction) => void): Client {
	const recordingTx = (tx: Transaction, record: NonNullable<WriteOptions['record']>): Transaction =>
		new Proxy(tx, {
			get: (target, prop): unknown => {
				const value: unknown = Reflect.get(target, prop, target);
				if (typeof value !== 'function') return value;
				if (prop === 'execute')
					return (stmt: InStatement) => {
						record(stmt);
						return target.execute(stmt);
					};
				if (prop === 'batch' || prop === 'executeMultiple')
					return (...args: unknown[]): unknown => {
						record(undefined);
						return Reflect.apply(value, target, args);
					};
				return value.bind(target);
			}
		});
	return new Proxy(client, {
		get: (target, prop): unknown => {
			const value: unknown = Reflect.get(target, prop, target);
			if (prop === 'transaction')
				return async (...args: Parameters<Client['transaction']>) => {
					const tx = await target.transaction(...args);
					const record = recorder();
					const handed = record ? recordingTx(tx, record) : tx;
					opened(handed);
					return handed;
				};
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

/** What `SessionDb.writes` builds queries with; the record writers' batch forms take it. */
export type SessionWrites = SessionDb['writes'];

/**
 * Runs `queries` (built with `s.writes`) as one write batch: `s.writes.batch` for a list whose length
 * is known only at run time. Nothing to run, no round trip.
 */
export async function writeAll(s: Pick<SessionDb, 'writes'>, queries: readonly BatchItem<'sqlite'>[]): Promise<void> {
	const [first, ...rest] = queries;
	if (first) await s.writes.batch([first, ...rest]);
}

class Handle implements SessionDb {
	readonly db: SessionDrizzle;
	readonly writes: SessionDrizzle;
	/**
	 * `db` over a client whose transactions report their statements to `recorder` while one is set, and
	 * are noted in `openTx` (write transactions run one at a time: the queue) for `inWrite`.
	 */
	private readonly recording: SessionDrizzle;
	private recorder: WriteOptions['record'];
	private openTx: Transaction | undefined;
	users = 0;
	evicted = false;

	constructor(
		readonly id: string,
		readonly client: Client,
		/** The database's URL: write transactions queue on it process-wide (write-lock.ts). */
		private readonly lockKey: string
	) {
		this.db = drizzle(client, { schema: sessionSchema });
		// The same client, except that a batch drizzle sends is this handle's queued write batch.
		const batching = new Proxy(client, {
			get: (target, prop): unknown => {
				if (prop === 'batch') return (statements: InStatement[]) => this.batch(statements, 'write');
				const value: unknown = Reflect.get(target, prop, target);
				// The native client keeps its state in private fields: its methods must run on it, not on the proxy.
				return typeof value === 'function' ? value.bind(target) : value;
			}
		});
		this.writes = drizzle(batching, { schema: sessionSchema });
		this.recording = drizzle(
			recordingClient(
				client,
				() => this.recorder,
				(tx) => (this.openTx = tx)
			),
			{ schema: sessionSchema }
		);
	}

	write<T>(fn: (tx: SessionTx) => Promise<T>, options: WriteOptions = {}): Promise<T> {
		const { record } = options;
		const run = () =>
			withWriteLock((started) =>
				this.recording.transaction(
					(tx) => {
						started();
						return fn(tx);
					},
					{ behavior: 'immediate' }
				)
			);
		return queueWrite(this.lockKey, async () => {
			// Write transactions on this database run one at a time (the queue), so the recorder set here is
			// this one's, and so is the transaction noted in `openTx`.
			this.recorder = record;
			try {
				return await run();
			} finally {
				this.recorder = undefined;
				this.openTx = undefined;
			}
		});
	}

	readonly inWrite: TxBatch = (statements) => {
		const open = this.openTx;
		if (!open) return Promise.reject(new Error('session: inWrite outside a write transaction'));
		return statements.length === 0 ? Promise.resolve([]) : open.batch(statements);
	};

	batch(statements: InStatement[], mode: 'read' | 'write'): Promise<ResultSet[]> {
		if (statements.length === 0) return Promise.resolve([]);
		if (mode === 'read') return this.client.batch(statements, 'read');
		// A batch that fails busy is started again by the client (busy.ts): it is one transaction, and ran nothing.
		return queueWrite(this.lockKey, () => this.client.batch(statements, 'write'));
	}
}

/** A session's database is not there: the session was deleted (or its database never created). Nothing was made in its place. */
export class SessionDbMissingError extends MissingDatabaseError {
	constructor(readonly sessionId: string) {
		super(`session ${sessionId} has no database: it was deleted, or never created`);
		this.name = 'SessionDbMissingError';
	}
}

/** LRU cache of open session databases with reference counts: an evicted handle closes when its last user leaves. */
export class SessionDbPool {
	private readonly open = new Map<string, Promise<Handle>>();

	readonly placement: SessionPlacement;

	constructor(
		private readonly cfg: Pick<Config, 'sessionDb'>,
		placement?: SessionPlacement
	) {
		this.placement = placement ?? new TemplatePlacement(cfg);
	}

	/**
	 * Creates a new session's database (through its placement) and migrates it: two round trips to a
	 * remote database (every migration and the schema reads in one batch, then the undo log's triggers).
	 * (A copy of another session's database is made with `createCopy` instead.)
	 */
	async create(id: string): Promise<void> {
		await this.placement.create(id);
		this.release(await this.acquire(id, true));
	}

	/**
	 * Opens (migrating if needed) the database of session `id` for the duration of `fn`. One that is not
	 * there (deleted, or never made by `create`) is SessionDbMissingError, and is not created.
	 */
	async use<T>(id: string, fn: (s: SessionDb) => Promise<T>): Promise<T> {
		const handle = await this.acquire(id);
		try {
			return await fn(handle);
		} finally {
			this.release(handle);
		}
	}

	/** `fresh`: the database was created just now (see `migrateAndRead`); ignored when it is open already. */
	private async acquire(id: string, fresh = false): Promise<Handle> {
		// A database being destroyed is not reopened until it is gone (its files would vanish under the new handle).
		await this.destroying.get(id);
		let pending = this.open.get(id);
		if (pending) {
			// Refresh LRU position.
			this.open.delete(id);
			this.open.set(id, pending);
		} else {
			pending = (async () => {
				const { url, authToken } = await this.placement.locate(id);
				// Only `create` brings a database into existence: opening a local file creates it, so a session
				// deleted while something still worked on it (a turn, a runner resuming it) would come back empty.
				if (!fresh && !(await fileDatabaseExists(url))) throw new SessionDbMissingError(id);
				const client = await openClient(url, authToken, SESSION_DB_CONCURRENCY);
				try {
					// The undo log's triggers follow the schema the migrations left: it is read in their last
					// batch, so a database that is up to date costs one round trip to open.
					const { reads } = await migrateAndRead(client, sessionMigrations, { fresh, existing: !fresh, reads: UNDO_TRIGGER_READS });
					const [schema, triggers] = reads;
					if (!schema || !triggers) throw new Error('the schema reads returned no result');
					const changes = undoTriggerChanges(schema, triggers);
					if (changes.length > 0) await client.batch(changes, 'write');
				} catch (err) {
					client.close();
					if (!(err instanceof MissingDatabaseError)) throw err;
					// Deleted between the look and the open, which made the file again: it goes too (it has no tables).
					await removeFileDatabase(url);
					throw new SessionDbMissingError(id);
				}
				return new Handle(id, client, url);
			})();
			this.open.set(id, pending);
			pending.catch(() => this.open.delete(id));
			this.evictOverflow();
		}
		const handle = await pending;
		handle.users++;
		return handle;
	}

	private release(handle: Handle) {
		handle.users--;
		if (handle.evicted && handle.users === 0) handle.client.close();
	}

	private evictOverflow() {
		while (this.open.size > this.cfg.sessionDb.cacheSize) {
			const oldest = this.open.keys().next();
			if (oldest.done) return;
			const pending = this.open.get(oldest.value);
			this.open.delete(oldest.value);
			void pending?.then(
				(h) => {
					h.evicted = true;
					if (h.users === 0) h.client.close();
				},
				() => undefined
			);
		}
	}

	/**
	 * Creates session `toId`'s database (a new id) as a copy of `from`'s records, as db/copy.ts describes.
	 * Between local files it is the whole file copied page for page: no empty database is made first, and
	 * no index, full-text or vector, is built again. Elsewhere a new database is created and migrated, then
	 * filled row by row through the client. Says which it was; a copy that fails leaves no database behind.
	 */
	async createCopy(from: SessionDb, toId: string): Promise<'file' | 'rows'> {
		await this.placement.create(toId);
		try {
			const [source, target] = await Promise.all([this.placement.locate(from.id), this.placement.locate(toId)]);
			if (isFileUrl(source.url) && isFileUrl(target.url)) {
				const { copyDatabasePages } = await import('./file-client');
				await copyDatabasePages(from.client, target.url);
				await this.use(toId, (to) => withoutUncopied(to.client));
				return 'file';
			}
			this.release(await this.acquire(toId, true));
			await this.use(toId, (to) => copyDatabase(from.client, to.client));
			return 'rows';
		} catch (err) {
			await this.destroy(toId).catch(() => undefined);
			throw err;
		}
	}

	/** How many databases are currently cached (for tests and diagnostics). */
	get size(): number {
		return this.open.size;
	}

	/** Databases being destroyed, by session id: settles when the destruction has ended either way. */
	private readonly destroying = new Map<string, Promise<void>>();

	/** Closes the session's database and has its placement remove it (files, remote contents, Turso database). */
	async destroy(id: string): Promise<void> {
		const running = this.destroyDatabase(id);
		const settled = running.catch(() => undefined);
		this.destroying.set(id, settled);
		try {
			await running;
		} finally {
			if (this.destroying.get(id) === settled) this.destroying.delete(id);
		}
	}

	private async destroyDatabase(id: string): Promise<void> {
		const pending = this.open.get(id);
		this.open.delete(id);
		if (pending) {
			const h = await pending.catch(() => undefined);
			if (h) {
				h.evicted = true;
				await h.write(async () => undefined).catch(() => undefined);
				h.client.close();
			}
		}
		await this.placement.remove(id);
	}

	async closeAll(): Promise<void> {
		const all = [...this.open.values()];
		this.open.clear();
		for (const p of all) {
			const h = await p.catch(() => undefined);
			if (h) {
				h.evicted = true;
				if (h.users === 0) h.client.close();
			}
		}
	}
}

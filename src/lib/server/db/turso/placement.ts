/**
 * Turso databases per session: creating a session creates its database through the Platform API and
 * deleting the session deletes it. Every database is recorded in the control database (table
 * `session_databases`) before it is requested and until its deletion is confirmed, so a failed or
 * interrupted call never leaves an untracked database: calls are retried (the server's one retry policy,
 * `retry/`), what still fails is recorded with its error, swept again later (`sweep`) and reported by
 * `kantera doctor`.
 */
import { and, eq, inArray, lt, notExists } from 'drizzle-orm';
import type { Config, TursoConfig } from '../../config';
import type { ControlDb } from '../control';
import * as controlSchema from '../control-schema';
import { isSessionId } from '../ids';
import { InvalidSessionIdError, type SessionDbLocation, type SessionPlacement } from '../placement';
import { TursoApiError, TursoPlatformApi, type TursoDatabase } from './api';
import { withRetry, type RetryableFailure, type RetryPolicy } from '../../retry';
import type { Scheduler } from '../../jobs';

const { sessionDatabases, playSessions } = controlSchema;

/** Three attempts per Platform API call, the waits between them jittered: about 0.3–0.6 s, then 0.6–1.2 s. */
const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 2, baseDelayMs: 600, maxDelayMs: 1_500 });
/** A database still `creating`, or `ready` with no play session, this long after its last change is an orphan. */
export const ORPHAN_AFTER_MS = 10 * 60_000;
/** Minted group tokens live this long and are replaced a day before they expire. */
const GROUP_TOKEN_EXPIRATION = '7d';
const GROUP_TOKEN_RENEW_AFTER_MS = 6 * 24 * 3_600_000;

export class SessionDatabaseError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'SessionDatabaseError';
	}
}

export interface TursoPlacementDeps {
	cfg: Pick<Config, 'sessionDb'> & { turso: TursoConfig };
	control: ControlDb;
	api?: TursoPlatformApi;
	retry?: RetryPolicy;
	now?: () => number;
}

export interface SweepReport {
	deleted: string[];
	failed: Array<{ name: string; error: string }>;
}

export interface OrphanReport {
	/** Recorded databases that are waiting to be deleted or were left half-made. */
	pending: Array<{ sessionId: string; name: string; status: string; attempts: number; lastError: string | null }>;
	/** Databases in the group with Kantera's prefix that nothing records (only when the API answered). */
	untracked: string[];
}

function message(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

/** Worth another try: a Platform API error that says so (no answer, a rate limit, a server error), or any other failure of the call. */
function tursoFailure(err: unknown): RetryableFailure {
	return { retryable: !(err instanceof TursoApiError) || err.transient };
}

export class TursoPlacement implements SessionPlacement {
	readonly api: TursoPlatformApi;
	private readonly retry: RetryPolicy;
	private readonly now: () => number;
	private readonly hostnames = new Map<string, string>();
	private token: { jwt: string; renewAt: number } | undefined;
	private minting: Promise<string> | undefined;

	constructor(private readonly deps: TursoPlacementDeps) {
		this.api = deps.api ?? new TursoPlatformApi(deps.cfg.turso);
		this.retry = deps.retry ?? DEFAULT_RETRY;
		this.now = deps.now ?? Date.now;
	}

	databaseName(id: string): string {
		if (!isSessionId(id)) throw new InvalidSessionIdError();
		return `${this.deps.cfg.turso.dbPrefix}${id}`;
	}

	private get db() {
		return this.deps.control.db;
	}

	private withRetry<T>(fn: () => Promise<T>): Promise<T> {
		return withRetry(fn, { policy: this.retry, classify: tursoFailure });
	}

	/** Creates the database; one left over from a first attempt whose answer was lost is adopted. */
	private async createOrAdopt(name: string): Promise<TursoDatabase> {
		try {
			return await this.api.createDatabase(name);
		} catch (err) {
			if (err instanceof TursoApiError && err.status === 409) {
				const existing = await this.api.getDatabase(name);
				if (existing) return existing;
			}
			throw err;
		}
	}

	async create(id: string): Promise<void> {
		const name = this.databaseName(id);
		const now = this.now();
		// Recorded before the request: whatever happens next, this database cannot go unnoticed.
		await this.db.insert(sessionDatabases).values({ sessionId: id, name, status: 'creating', attempts: 1, createdAt: now, updatedAt: now });
		let created: TursoDatabase;
		try {
			created = await this.withRetry(() => this.createOrAdopt(name));
		} catch (err) {
			await this.db
				.update(sessionDatabases)
				.set({ lastError: message(err), updatedAt: this.now() })
				.where(eq(sessionDatabases.sessionId, id));
			// The create may have happened even though its answer was lost: delete whatever may exist.
			await this.remove(id);
			throw new SessionDatabaseError(`Could not create the session's database on Turso: ${message(err)}`);
		}
		await this.db
			.update(sessionDatabases)
			.set({ status: 'ready', hostname: created.hostname, lastError: null, updatedAt: this.now() })
			.where(eq(sessionDatabases.sessionId, id));
		this.hostnames.set(id, created.hostname);
	}

	private async hostname(id: string): Promise<string> {
		const cached = this.hostnames.get(id);
		if (cached) return cached;
		const [row] = await this.db.select().from(sessionDatabases).where(eq(sessionDatabases.sessionId, id)).limit(1);
		if (!row || row.status !== 'ready' || !row.hostname)
			throw new SessionDatabaseError(`Session ${id} has no database on Turso${row ? ` (it is ${row.status})` : ''}.`);
		this.hostnames.set(id, row.hostname);
		return row.hostname;
	}

	/** The group token: the configured one, else one minted through the API and renewed before it expires. */
	private async authToken(): Promise<string> {
		const configured = this.deps.cfg.sessionDb.authToken;
		if (configured) return configured;
		if (this.token && this.now() < this.token.renewAt) return this.token.jwt;
		this.minting ??= this.withRetry(() => this.api.mintGroupToken(GROUP_TOKEN_EXPIRATION))
			.then((jwt) => {
				this.token = { jwt, renewAt: this.now() + GROUP_TOKEN_RENEW_AFTER_MS };
				return jwt;
			})
			.finally(() => {
				this.minting = undefined;
			});
		return this.minting;
	}

	async locate(id: string): Promise<SessionDbLocation> {
		const hostname = await this.hostname(id);
		const url = this.deps.cfg.sessionDb.urlTemplate.replaceAll('{hostname}', hostname).replaceAll('{id}', id);
		return { url, authToken: await this.authToken() };
	}

	async prepareRestore(id: string): Promise<SessionDbLocation> {
		const [row] = await this.db.select().from(sessionDatabases).where(eq(sessionDatabases.sessionId, id)).limit(1);
		if (row?.status === 'ready' && row.hostname && (await this.withRetry(() => this.api.getDatabase(row.name)))) return this.locate(id);
		// Gone (or never finished): forget the old record and create the database anew.
		if (row) await this.db.delete(sessionDatabases).where(eq(sessionDatabases.sessionId, id));
		this.hostnames.delete(id);
		await this.create(id);
		return this.locate(id);
	}

	/**
	 * Deletes the session's database. A failure does not fail the caller (the session itself is already
	 * gone): the row stays in `deleting` with the error, for the sweeper and `kantera doctor`.
	 */
	async remove(id: string): Promise<void> {
		this.hostnames.delete(id);
		const [row] = await this.db.select().from(sessionDatabases).where(eq(sessionDatabases.sessionId, id)).limit(1);
		if (!row) return;
		await this.db
			.update(sessionDatabases)
			.set({ status: 'deleting', attempts: row.status === 'deleting' ? row.attempts + 1 : 1, updatedAt: this.now() })
			.where(eq(sessionDatabases.sessionId, id));
		try {
			await this.withRetry(() => this.api.deleteDatabase(row.name));
		} catch (err) {
			await this.db
				.update(sessionDatabases)
				.set({ lastError: message(err), updatedAt: this.now() })
				.where(eq(sessionDatabases.sessionId, id));
			console.warn(`session ${id}: deleting Turso database ${row.name} failed; it is recorded and will be retried: ${message(err)}`);
			return;
		}
		await this.db.delete(sessionDatabases).where(eq(sessionDatabases.sessionId, id));
	}

	/** Recorded databases that should not exist: waiting for deletion, or made for a session that never was. */
	private async strays() {
		const staleBefore = this.now() - ORPHAN_AFTER_MS;
		const noSession = notExists(
			this.db.select({ id: playSessions.id }).from(playSessions).where(eq(playSessions.id, sessionDatabases.sessionId))
		);
		const deleting = await this.db.select().from(sessionDatabases).where(eq(sessionDatabases.status, 'deleting'));
		const abandoned = await this.db
			.select()
			.from(sessionDatabases)
			.where(and(inArray(sessionDatabases.status, ['creating', 'ready']), lt(sessionDatabases.updatedAt, staleBefore), noSession));
		return [...deleting, ...abandoned];
	}

	/** Retries every pending deletion and deletes databases whose session never came to be. */
	async sweep(): Promise<SweepReport> {
		const report: SweepReport = { deleted: [], failed: [] };
		for (const row of await this.strays()) {
			await this.remove(row.sessionId);
			const [left] = await this.db.select().from(sessionDatabases).where(eq(sessionDatabases.sessionId, row.sessionId)).limit(1);
			if (left) report.failed.push({ name: row.name, error: left.lastError ?? 'unknown error' });
			else report.deleted.push(row.name);
		}
		return report;
	}

	/** What `kantera doctor` shows: stray rows, and (when the API answers) databases nothing records. */
	async orphans(): Promise<OrphanReport> {
		const pending = (await this.strays()).map((r) => ({
			sessionId: r.sessionId,
			name: r.name,
			status: r.status,
			attempts: r.attempts,
			lastError: r.lastError
		}));
		const recorded = new Set((await this.db.select({ name: sessionDatabases.name }).from(sessionDatabases)).map((r) => r.name));
		const listed = await this.api.listDatabases();
		const untracked = listed.map((d) => d.name).filter((name) => name.startsWith(this.deps.cfg.turso.dbPrefix) && !recorded.has(name));
		return { pending, untracked };
	}
}

/** How often a server retries pending deletions and removes abandoned databases. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Sweeps now and then every `intervalMs`, as a job of the scheduler: a server's interval, or on an
 * isolate host the first request after each is due (no timer of its own outlives a request there).
 * Returns the function that stops it.
 */
export function startSweeper(placement: TursoPlacement, scheduler: Scheduler, intervalMs = SWEEP_INTERVAL_MS): () => void {
	return scheduler.repeat(intervalMs, async () => {
		try {
			const r = await placement.sweep();
			if (r.deleted.length) console.info(`turso sweeper: deleted ${r.deleted.length} leftover database(s): ${r.deleted.join(', ')}`);
			if (r.failed.length) console.warn(`turso sweeper: ${r.failed.length} database(s) still to delete (see kantera doctor)`);
		} catch (err) {
			console.warn(`turso sweeper: ${message(err)}`);
		}
	});
}

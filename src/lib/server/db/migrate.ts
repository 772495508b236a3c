/**
 * A small migrator over bundled SQL (see scripts/bundle-migrations.js). The pending migrations run in
 * one write transaction together with their bookkeeping rows, so a database is never left half-migrated.
 */
import type { Client, InStatement, ResultSet } from '@libsql/client';
import { sqlText } from './text';

export interface Migration {
	idx: number;
	tag: string;
	hash: string;
	sql: string;
}

export class MigrationError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'MigrationError';
	}
}

const TABLE = '__kantera_migrations';
const COLUMNS = '(idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)';

/** A database that should already be one of ours has no bookkeeping table: it is not there (deleted, or never created). */
export class MissingDatabaseError extends Error {
	constructor(message = 'the database is not there: it was deleted, or never created') {
		super(message);
		this.name = 'MissingDatabaseError';
	}
}

export interface MigrateOptions {
	/**
	 * The database was created just now and is empty: everything goes in one batch that starts by
	 * creating the bookkeeping table (and so fails whole, changing nothing, if it exists after all;
	 * the usual two round trips follow then).
	 */
	readonly fresh?: boolean;
	/**
	 * The database must exist already (migrated before, its bookkeeping table there): an empty one is
	 * refused with MissingDatabaseError and nothing is written to it, so opening a deleted database
	 * never brings it back as an empty one. Its first round trip is then a read batch.
	 */
	readonly existing?: boolean;
	/** Reads run after the migrations in the same batch, on the migrated schema (no round trip of their own). */
	readonly reads?: readonly InStatement[];
}

export interface Migrated {
	/** The tags applied by this call. */
	readonly applied: string[];
	/** The results of `reads`, in order. */
	readonly reads: ResultSet[];
}

/**
 * Applies every migration not yet applied, in order. Returns the tags it applied.
 *
 * Two round trips whatever the number of migrations (a remote database pays each one): one batch reads
 * the bookkeeping table (creating it if needed), one batch applies every pending migration with its
 * bookkeeping row in a single write transaction, so a database is never left half-migrated, and a
 * failing migration leaves the database as it was before the call.
 */
export async function migrate(client: Client, migrations: readonly Migration[]): Promise<string[]> {
	return (await migrateAndRead(client, migrations)).applied;
}

/**
 * `migrate`, with `options.reads` carried by the last batch it sends: a database that is up to date
 * costs one round trip, reads included; a fresh one (`options.fresh`) one round trip as well.
 */
export async function migrateAndRead(client: Client, migrations: readonly Migration[], options: MigrateOptions = {}): Promise<Migrated> {
	const reads = options.reads ?? [];
	if (options.fresh) {
		const { steps } = migrationSteps(migrations, Date.now());
		const all = await client.batch([`CREATE TABLE ${TABLE} ${COLUMNS}`, ...steps, ...reads], 'write').catch(() => undefined);
		// Not fresh after all (the table exists), or a migration failed: the batch changed nothing, and
		// the usual path below finds out which (and names a failing migration).
		if (all) return { applied: migrations.map((m) => m.tag), reads: all.slice(1 + steps.length) };
	}
	// The second batch is deferred, not a write: on a database that has its bookkeeping table (every open but
	// the first) it only reads, and takes no write lock that other instances' writes would queue behind.
	const [rows, ...current] = options.existing
		? await client.batch([`SELECT idx, tag FROM ${TABLE} ORDER BY idx`, ...reads], 'read').catch(async (err: unknown) => {
				const rs = await client.execute({
					sql: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
					args: [TABLE]
				});
				throw Number(rs.rows[0]?.n) === 0 ? new MissingDatabaseError() : err;
			})
		: (
				await client.batch(
					[`CREATE TABLE IF NOT EXISTS ${TABLE} ${COLUMNS}`, `SELECT idx, tag FROM ${TABLE} ORDER BY idx`, ...reads],
					'deferred'
				)
			).slice(1);
	const applied = new Map((rows?.rows ?? []).map((r) => [Number(r.idx), sqlText(r.tag)]));
	for (const [idx, tag] of applied) {
		const known = migrations.find((m) => m.idx === idx);
		if (!known)
			throw new MigrationError(
				`database has migration ${idx} (${tag}) that this version of Kantera does not know; it was written by a newer version`
			);
	}
	const pending = migrations.filter((m) => !applied.has(m.idx));
	if (pending.length === 0) return { applied: [], reads: current };
	const { steps, owner } = migrationSteps(pending, Date.now());
	try {
		const results = await client.batch([...steps, ...reads], 'write');
		return { applied: pending.map((m) => m.tag), reads: results.slice(steps.length) };
	} catch (err) {
		// A batch error names its step (LibsqlBatchError; not imported: that would load the native entry on remote hosts).
		const failed =
			err instanceof Error && 'statementIndex' in err && typeof err.statementIndex === 'number' ? owner[err.statementIndex] : undefined;
		const which = failed ? failed.tag : pending.map((m) => m.tag).join(', ');
		throw new MigrationError(`migration ${which} failed: ${err instanceof Error ? err.message : String(err)}`);
	}
}

/** The statements of `migrations` with their bookkeeping rows, and the migration each step belongs to. */
function migrationSteps(migrations: readonly Migration[], now: number): { steps: InStatement[]; owner: Migration[] } {
	const steps: InStatement[] = [];
	const owner: Migration[] = [];
	for (const m of migrations) {
		const statements = m.sql
			.split('--> statement-breakpoint')
			.map((s) => s.trim())
			.filter((s) => s.replace(/--[^\n]*\n?/g, '').trim().length > 0);
		for (const s of statements) {
			steps.push(s);
			owner.push(m);
		}
		steps.push({ sql: `INSERT INTO ${TABLE} (idx, tag, hash, applied_at) VALUES (?, ?, ?, ?)`, args: [m.idx, m.tag, m.hash, now] });
		owner.push(m);
	}
	return { steps, owner };
}

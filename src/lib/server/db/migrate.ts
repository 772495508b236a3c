/**
 * A small migrator over bundled SQL (see scripts/bundle-migrations.js). The pending migrations run in
 * one write transaction together with their bookkeeping rows, so a database is never left half-migrated.
 */
import type { Client, InStatement } from '@libsql/client';
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

/**
 * Applies every migration not yet applied, in order. Returns the tags it applied.
 *
 * Two round trips whatever the number of migrations (a remote database pays each one): one batch reads
 * the bookkeeping table (creating it if needed), one batch applies every pending migration with its
 * bookkeeping row in a single write transaction, so a database is never left half-migrated, and a
 * failing migration leaves the database as it was before the call.
 */
export async function migrate(client: Client, migrations: readonly Migration[]): Promise<string[]> {
	const [, rows] = await client.batch(
		[
			`CREATE TABLE IF NOT EXISTS ${TABLE} (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
			`SELECT idx, tag FROM ${TABLE} ORDER BY idx`
		],
		'write'
	);
	const applied = new Map((rows?.rows ?? []).map((r) => [Number(r.idx), sqlText(r.tag)]));
	for (const [idx, tag] of applied) {
		const known = migrations.find((m) => m.idx === idx);
		if (!known)
			throw new MigrationError(
				`database has migration ${idx} (${tag}) that this version of Kantera does not know; it was written by a newer version`
			);
	}
	const pending = migrations.filter((m) => !applied.has(m.idx));
	if (pending.length === 0) return [];
	const steps: InStatement[] = [];
	/** The migration each batch step belongs to, to name the one that failed. */
	const owner: Migration[] = [];
	const now = Date.now();
	for (const m of pending) {
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
	try {
		await client.batch(steps, 'write');
	} catch (err) {
		// A batch error names its step (LibsqlBatchError; not imported: that would load the native entry on remote hosts).
		const failed =
			err instanceof Error && 'statementIndex' in err && typeof err.statementIndex === 'number' ? owner[err.statementIndex] : undefined;
		const which = failed ? failed.tag : pending.map((m) => m.tag).join(', ');
		throw new MigrationError(`migration ${which} failed: ${err instanceof Error ? err.message : String(err)}`);
	}
	return pending.map((m) => m.tag);
}

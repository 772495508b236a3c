/**
 * A small migrator over bundled SQL (see scripts/bundle-migrations.js). Each migration runs in its own
 * write transaction together with its bookkeeping row, so a database is never left half-migrated.
 */
import type { Client } from '@libsql/client';

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

/** Applies every migration not yet applied, in order. Returns the tags it applied. */
export async function migrate(client: Client, migrations: readonly Migration[]): Promise<string[]> {
	await client.execute(
		`CREATE TABLE IF NOT EXISTS ${TABLE} (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)`
	);
	const rows = await client.execute(`SELECT idx, tag FROM ${TABLE} ORDER BY idx`);
	const applied = new Map(rows.rows.map((r) => [Number(r.idx), String(r.tag)]));
	for (const [idx, tag] of applied) {
		const known = migrations.find((m) => m.idx === idx);
		if (!known)
			throw new MigrationError(
				`database has migration ${idx} (${tag}) that this version of Kantera does not know; it was written by a newer version`
			);
	}
	const done: string[] = [];
	for (const m of migrations) {
		if (applied.has(m.idx)) continue;
		const statements = m.sql
			.split('--> statement-breakpoint')
			.map((s) => s.trim())
			.filter((s) => s.replace(/--[^\n]*\n?/g, '').trim().length > 0);
		const tx = await client.transaction('write');
		try {
			for (const s of statements) await tx.execute(s);
			await tx.execute({
				sql: `INSERT INTO ${TABLE} (idx, tag, hash, applied_at) VALUES (?, ?, ?, ?)`,
				args: [m.idx, m.tag, m.hash, Date.now()]
			});
			await tx.commit();
		} catch (err) {
			await tx.rollback();
			throw new MigrationError(`migration ${m.tag} failed: ${err instanceof Error ? err.message : String(err)}`);
		} finally {
			tx.close();
		}
		done.push(m.tag);
	}
	return done;
}

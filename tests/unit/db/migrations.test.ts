import { describe, it, expect, afterEach } from 'vitest';
import { createClient } from '@libsql/client';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { migrate, migrateAndRead, MigrationError, sqlText } from '../../../src/lib/server/db';
import { sessionMigrations, controlMigrations } from '../../../src/lib/server/db/migrations.generated';
import { tempDir } from '../../helpers/env';
import { freshDatabaseUrl } from '../../helpers/databases';
import { renderBundle } from '../../../scripts/bundle-migrations.js';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function fileClient() {
	const d = tempDir();
	dirs.push(d);
	// A file, or (remote project) a fresh database on the Hrana test server through the same client.
	return createClient({ url: freshDatabaseUrl(d.dir) });
}

async function tables(c: ReturnType<typeof createClient>) {
	const r = await c.execute("SELECT name FROM sqlite_master WHERE type IN ('table','trigger') ORDER BY name");
	return r.rows.map((row) => sqlText(row.name));
}

describe('migrations', () => {
	it('bundle is up to date with drizzle/', () => {
		const current = readFileSync(path.resolve('src/lib/server/db/migrations.generated.ts'), 'utf8');
		expect(renderBundle()).toBe(current);
	});

	it('applies every session migration to a fresh database, once', async () => {
		const c = fileClient();
		expect(await migrate(c, sessionMigrations)).toEqual(sessionMigrations.map((m) => m.tag));
		expect(await migrate(c, sessionMigrations)).toEqual([]);
		const names = await tables(c);
		for (const t of [
			'state',
			'journal',
			'memory_notes',
			'documents',
			'summaries',
			'story_entries',
			'log_messages',
			'sections',
			'sections_trigram',
			'sections_words',
			'sections_ai'
		]) {
			expect(names).toContain(t);
		}
		c.close();
	});

	it('brings a database at an older version up to date, keeping its data', async () => {
		const c = fileClient();
		const first = sessionMigrations.slice(0, 1);
		await migrate(c, first);
		await c.execute(
			"INSERT INTO sections (kind, record_id, ord, path, body, gm_only, content_hash) VALUES ('journal', 1, 0, 'Journal', 'before the upgrade', 0, 'h')"
		);
		expect(await migrate(c, sessionMigrations)).toEqual(sessionMigrations.slice(1).map((m) => m.tag));
		const row = await c.execute('SELECT count(*) AS n FROM sections');
		expect(row.rows[0]?.n).toBe(1);
		c.close();
	});

	it('applies the control migrations', async () => {
		const c = fileClient();
		await migrate(c, controlMigrations);
		expect(await tables(c)).toEqual(expect.arrayContaining(['users', 'auth_sessions', 'api_tokens', 'play_sessions']));
		c.close();
	});

	it('refuses a database written by a newer version', async () => {
		const c = fileClient();
		await migrate(c, sessionMigrations);
		await c.execute("INSERT INTO __kantera_migrations (idx, tag, hash, applied_at) VALUES (999, '0999_future', 'x', 0)");
		await expect(migrate(c, sessionMigrations)).rejects.toBeInstanceOf(MigrationError);
		c.close();
	});

	it('rolls back a failing migration whole', async () => {
		const c = fileClient();
		const bad = [{ idx: 0, tag: '0000_bad', hash: 'x', sql: 'CREATE TABLE a (x);\n--> statement-breakpoint\nCREATE TABLE a (y);' }];
		await expect(migrate(c, bad)).rejects.toThrow(/0000_bad/);
		expect(await tables(c)).not.toContain('a');
		c.close();
	});
	it('keeps only the class of failures recorded before failure classes, in the turns and the event log', async () => {
		const c = fileClient();
		const before = sessionMigrations.filter((m) => m.tag < '0006_turn_failure');
		await migrate(c, before);
		const leak = 'The LLM call failed (bad_request): refused (request: the abbot poisoned the well)';
		const turn = (id: string, status: string, error: string | null) => ({
			sql: "INSERT INTO turns (id, idempotency_key, kind, user_id, input, status, error, created_at) VALUES (?, ?, 'player', 'u', 'x', ?, ?, 0)",
			args: [id, `key-${id}`, status, error]
		});
		await c.batch([
			turn('t1', 'failed', leak),
			turn('t2', 'failed', 'The LLM call failed (rate_limit): slow down'),
			turn('t3', 'failed', 'The turn failed: disk full'),
			turn('t4', 'interrupted', 'The server stopped while this turn was running.'),
			{
				sql: "INSERT INTO events (turn_id, type, data, created_at) VALUES ('t1', 'turn.failed', ?, 0)",
				args: [JSON.stringify({ type: 'turn.failed', turnId: 't1', error: leak, retryable: false })]
			}
		]);
		await migrate(c, sessionMigrations);
		const rows = await c.execute('SELECT id, status, error, failure_reason, error_id FROM turns ORDER BY id');
		expect(rows.rows.map((r) => [r.id, r.status, r.error, r.failure_reason, r.error_id])).toEqual([
			['t1', 'failed', null, 'refused', 'legacy'],
			['t2', 'failed', null, 'rate_limited', 'legacy'],
			['t3', 'failed', null, 'internal', 'legacy'],
			['t4', 'interrupted', 'The server stopped while this turn was running.', null, null]
		]);
		const events = await c.execute('SELECT data FROM events');
		expect(events.rows.map((r): unknown => JSON.parse(sqlText(r.data)))).toEqual([
			{ type: 'turn.failed', turnId: 't1', reason: 'refused', errorId: 'legacy', retryable: false }
		]);
		c.close();
	});

	describe('with reads in the last batch, and a fresh database in one batch', () => {
		const READS = [
			"SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'sections'",
			'SELECT count(*) AS n FROM __kantera_migrations'
		];
		const count = (rs: { rows: ArrayLike<Record<string, unknown>> }) => Number(rs.rows[0]?.n);

		it('a fresh database: every migration, and the reads see the migrated schema', async () => {
			const c = fileClient();
			const { applied, reads } = await migrateAndRead(c, sessionMigrations, { fresh: true, reads: READS });
			expect(applied).toEqual(sessionMigrations.map((m) => m.tag));
			expect(reads.map(count)).toEqual([1, sessionMigrations.length]);
			// Up to date: nothing applied, the reads still answered.
			const again = await migrateAndRead(c, sessionMigrations, { reads: READS });
			expect(again.applied).toEqual([]);
			expect(again.reads.map(count)).toEqual([1, sessionMigrations.length]);
			c.close();
		});

		it('"fresh" for a database that is not: the usual path, its data kept, only what is pending applied', async () => {
			const c = fileClient();
			await migrate(c, sessionMigrations.slice(0, 1));
			await c.execute(
				"INSERT INTO sections (kind, record_id, ord, path, body, gm_only, content_hash) VALUES ('journal', 1, 0, 'Journal', 'kept', 0, 'h')"
			);
			const { applied, reads } = await migrateAndRead(c, sessionMigrations, { fresh: true, reads: READS });
			expect(applied).toEqual(sessionMigrations.slice(1).map((m) => m.tag));
			expect(reads.map(count)).toEqual([1, sessionMigrations.length]);
			expect((await c.execute('SELECT body FROM sections')).rows.map((r) => r.body)).toEqual(['kept']);
			c.close();
		});

		it('a failing migration of a fresh database is named, and leaves nothing', async () => {
			const c = fileClient();
			const bad = [{ idx: 0, tag: '0000_bad', hash: 'x', sql: 'CREATE TABLE a (x);\n--> statement-breakpoint\nCREATE TABLE a (y);' }];
			await expect(migrateAndRead(c, bad, { fresh: true })).rejects.toThrow(/0000_bad/);
			expect(await tables(c)).not.toContain('a');
			c.close();
		});
	});
});

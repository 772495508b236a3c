import { describe, it, expect, afterEach } from 'vitest';
import { createClient } from '@libsql/client';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { migrate, MigrationError } from '../../../src/lib/server/db';
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
	return r.rows.map((row) => String(row.name));
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
		for (const t of ['state', 'journal', 'memory_notes', 'documents', 'summaries', 'story_entries', 'log_messages', 'sections', 'sections_trigram', 'sections_words', 'sections_ai']) {
			expect(names).toContain(t);
		}
		c.close();
	});

	it('brings a database at an older version up to date, keeping its data', async () => {
		const c = fileClient();
		const first = sessionMigrations.slice(0, 1);
		await migrate(c, first);
		await c.execute("INSERT INTO sections (kind, record_id, ord, path, body, gm_only, content_hash) VALUES ('journal', 1, 0, 'Journal', 'before the upgrade', 0, 'h')");
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
});

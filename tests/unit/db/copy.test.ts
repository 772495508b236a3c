/**
 * The page copy of a local database (db/file-client.ts `copyDatabasePages`), the copy that backups,
 * save slots and loaded branches are made with: exact, sound, a snapshot even while writers commit, and
 * libSQL's vector index carried as it is (where VACUUM INTO rebuilds it and leaves a duplicate settings
 * row that fails `PRAGMA integrity_check`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '@libsql/client';
import path from 'node:path';
import { tempDir } from '../../helpers/env';
import { integrity, vectorIndexRows, vectorSearch } from '../../helpers/copies';
import { copyDatabasePages } from '../../../src/lib/server/db/file-client';
import { parseConfig } from '../../../src/lib/server/config';
import { newId, SessionDbPool } from '../../../src/lib/server/db';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const DIMS = 8;
/** A vector of its own for each number (none all zeros, which cosine distance cannot place). */
const vector = (i: number) => `[${Array.from({ length: DIMS }, (_, d) => Math.sin((i + 1) * (d + 1))).join(',')}]`;

/** A table of vectors with libSQL's vector index, as a session's `section_vectors`, and a plain table written alongside. */
async function vectors(client: Client, rows: number): Promise<void> {
	await client.batch(
		[
			`CREATE TABLE section_vectors (section_id INTEGER PRIMARY KEY, embedding F32_BLOB(${DIMS}) NOT NULL)`,
			"CREATE INDEX section_vectors_idx ON section_vectors (libsql_vector_idx(embedding, 'metric=cosine'))",
			'CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)',
			...Array.from({ length: rows }, (_, i) => ({ sql: 'INSERT INTO section_vectors VALUES (?, vector(?))', args: [i + 1, vector(i)] }))
		],
		'write'
	);
}

async function everything(client: Client): Promise<unknown> {
	const notes = await client.execute('SELECT id, body FROM notes ORDER BY id');
	const seq = await client.execute('SELECT name, seq FROM sqlite_sequence ORDER BY name');
	return { index: await vectorIndexRows(client), notes: notes.rows.map((r) => [r.id, r.body]), seq: seq.rows.map((r) => [r.name, r.seq]) };
}

describe('copyDatabasePages', () => {
	it('copies a database exactly, vector index included; the copy passes the integrity check, as does a copy of the copy', async () => {
		const d = tempDir();
		cleanups.push(d.remove);
		const url = (name: string) => `file:${path.join(d.dir, `${name}.db`)}`;
		const source = createClient({ url: url('source') });
		cleanups.push(() => source.close());
		await vectors(source, 300);
		await source.execute("INSERT INTO notes (body) VALUES ('one'), ('two')");
		await source.execute('DELETE FROM section_vectors WHERE section_id % 7 = 0');
		const want = await everything(source);
		const found = { results: 5, findsItself: true };
		expect(await vectorSearch(source)).toEqual(found);

		const copied = await copyDatabasePages(source, url('copy'));
		expect(copied.pages).toBeGreaterThan(1);
		const copy = createClient({ url: url('copy') });
		cleanups.push(() => copy.close());
		expect(await integrity(copy)).toEqual(['ok']);
		expect(await everything(copy)).toEqual(want);
		expect(await vectorSearch(copy)).toEqual(found);
		// A copy of a copy stays sound (VACUUM INTO added one more settings row with each generation).
		await copyDatabasePages(copy, url('copy2'));
		const copy2 = createClient({ url: url('copy2') });
		cleanups.push(() => copy2.close());
		expect(await integrity(copy2)).toEqual(['ok']);
		expect(await everything(copy2)).toEqual(want);
		// The copy is a database of its own: it takes writes, the vector index included.
		await copy2.execute(`INSERT INTO section_vectors VALUES (1000, vector('${vector(1000)}'))`);
		expect(await integrity(copy2)).toEqual(['ok']);
		await expect(copyDatabasePages(source, url('copy'))).rejects.toThrow(/EEXIST/);
	});

	it('is a snapshot of one moment while a session is written to: the copy holds a whole number of commits', async () => {
		const d = tempDir();
		cleanups.push(d.remove);
		const pool = new SessionDbPool(parseConfig({ KANTERA_DATA_DIR: d.dir }));
		cleanups.push(() => pool.closeAll());
		const id = newId();
		await pool.create(id);
		await pool.use(id, (s) => vectors(s.client, 200));
		// Writers commit pairs of rows (a note and a vector) while the copy is taken.
		let stop = false;
		let commits = 0;
		const writing = pool.use(id, async (s) => {
			while (!stop) {
				const n = 1000 + commits;
				await s.batch(
					[
						{ sql: 'INSERT INTO notes (body) VALUES (?)', args: [`note ${n}`] },
						{ sql: 'INSERT INTO section_vectors VALUES (?, vector(?))', args: [n, vector(n)] }
					],
					'write'
				);
				commits++;
				// A local batch never waits for I/O: without a turn of the event loop this would starve the copy.
				await new Promise((resolve) => setImmediate(resolve));
			}
		});
		const target = `file:${path.join(d.dir, 'copy.db')}`;
		await new Promise((resolve) => setTimeout(resolve, 50));
		await pool.use(id, (s) => copyDatabasePages(s.client, target));
		stop = true;
		await writing;
		expect(commits).toBeGreaterThan(0);
		const copy = createClient({ url: target });
		cleanups.push(() => copy.close());
		expect(await integrity(copy)).toEqual(['ok']);
		const counts = await copy.execute('SELECT (SELECT count(*) FROM notes) AS notes, (SELECT count(*) FROM section_vectors) AS vectors');
		const notes = Number(counts.rows[0]?.notes);
		expect(Number(counts.rows[0]?.vectors)).toBe(200 + notes);
		expect(await vectorSearch(copy)).toEqual({ results: 5, findsItself: true });
	});
});

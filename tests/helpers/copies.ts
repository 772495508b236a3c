/**
 * Checks for database copies (backups, save slots, loaded branches): SQLite's own integrity check, the
 * vector index's tables as they are (its DiskANN graph and settings rows, which a copy must carry
 * exactly), and whether vector search answers.
 */
import type { Client } from '@libsql/client';
import { sqlText } from '$lib/server/db';

/** `PRAGMA integrity_check`'s lines: `['ok']` for a sound database. */
export async function integrity(client: Pick<Client, 'execute'>): Promise<string[]> {
	return (await client.execute('PRAGMA integrity_check')).rows.map((r) => sqlText(r[0]));
}

/** Every row of libSQL's vector index tables (`libsql_vector_meta_shadow`, each `<index>_shadow`), blobs as hex. */
export async function vectorIndexRows(client: Pick<Client, 'execute'>): Promise<Record<string, string[][]>> {
	const tables = await client.execute(
		"SELECT name FROM sqlite_master WHERE type = 'table' AND (name = 'libsql_vector_meta_shadow' OR name IN " +
			"(SELECT name || '_shadow' FROM sqlite_master WHERE type = 'index' AND sql LIKE '%libsql_vector_idx%')) ORDER BY name"
	);
	const out: Record<string, string[][]> = {};
	for (const name of tables.rows.map((r) => sqlText(r.name))) {
		const rs = await client.execute(`SELECT * FROM "${name}" ORDER BY 1`);
		out[name] = rs.rows.map((r) => rs.columns.map((_, i) => hex(r[i])));
	}
	return out;
}

function hex(value: unknown): string {
	if (value instanceof ArrayBuffer) return Buffer.from(value).toString('hex');
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
	return value === null ? 'null' : typeof value;
}

/**
 * Whether vector search answers: how many results `vector_top_k` gives for the first stored vector
 * (at most `k`), and whether that vector's own row is among them. Not the ids themselves: libSQL's
 * DiskANN search starts from a random node, so two searches of one index may differ in their tail.
 * Undefined when there is no vector table.
 */
export async function vectorSearch(client: Pick<Client, 'execute'>, k = 5): Promise<{ results: number; findsItself: boolean } | undefined> {
	const has = await client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = 'section_vectors_idx'");
	if (Number(has.rows[0]?.n) === 0) return undefined;
	const rs = await client.execute({
		sql:
			"SELECT id, id = (SELECT min(section_id) FROM section_vectors) AS itself FROM vector_top_k('section_vectors_idx', " +
			'(SELECT embedding FROM section_vectors ORDER BY section_id LIMIT 1), ?)',
		args: [k]
	});
	return { results: rs.rows.length, findsItself: rs.rows.some((r) => Number(r.itself) === 1) };
}

/**
 * Emptying a database that cannot be deleted from here: a session database on a plain libSQL server
 * (no platform API to delete it with). A deleted session must not leave the player's records behind,
 * so every table, index, trigger and view goes.
 */
import type { Client, Transaction } from '@libsql/client';
import { sqlText } from './text';

/** Dropped first: triggers and views depend on tables; virtual tables drop their own shadow tables. */
const ORDER: Record<string, number> = { trigger: 0, view: 1, table: 3, index: 2 };

function quoteIdent(name: string): string {
	return `"${name.replaceAll('"', '""')}"`;
}

async function schemaObjects(client: Pick<Client, 'execute'> | Pick<Transaction, 'execute'>) {
	const rs = await client.execute(
		"SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND type IN ('table','index','trigger','view')"
	);
	return rs.rows
		.map((r) => ({ type: sqlText(r.type), name: sqlText(r.name), virtual: /^\s*create\s+virtual\s+table/i.test(sqlText(r.sql ?? '')) }))
		.sort((a, b) => (ORDER[a.type] ?? 9) - (ORDER[b.type] ?? 9) || Number(b.virtual) - Number(a.virtual));
}

export async function wipeDatabase(client: Pick<Client, 'execute'> | Pick<Transaction, 'execute'>): Promise<void> {
	// A few passes: dropping a virtual table or a vector index removes its shadow tables with it, and a
	// shadow table refuses a direct DROP while its owner exists; the next pass sees what is left.
	let failures: string[] = [];
	for (let pass = 0; pass < 3; pass++) {
		const objects = await schemaObjects(client);
		if (objects.length === 0) break;
		failures = [];
		for (const o of objects) {
			try {
				await client.execute(`DROP ${o.type.toUpperCase()} IF EXISTS ${quoteIdent(o.name)}`);
			} catch (err) {
				failures.push(`${o.name}: ${err instanceof Error ? err.message : String(err)}`);
			}
		}
	}
	const left = await schemaObjects(client);
	if (left.length > 0)
		throw new Error(`could not empty the database: ${left.map((o) => o.name).join(', ')} remain (${failures.join('; ')})`);
	const seq = await client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'");
	if (Number(seq.rows[0]?.n ?? 0) > 0) await client.execute('DELETE FROM sqlite_sequence');
}

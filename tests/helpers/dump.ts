/**
 * A dump of a session database for exactness checks: every row of every table (rowid included, blobs
 * as hex) except the cost ledger, the event log and the time-travel bookkeeping, plus the contents of
 * both full-text indexes read through fts5vocab (their shadow tables' bytes depend on merge history,
 * what they index does not). The id counters (`sqlite_sequence`) are left out on purpose: ids are
 * never handed out twice, undone or not.
 */
import type { Client } from '@libsql/client';
import { sqlText } from '$lib/server/db';

/** Not part of the records an undo or a load must reproduce (see the module comment). */
export const DUMP_EXCLUDED = new Set([
	'events',
	'ledger',
	'undo_log',
	'undo_capture',
	'undone_turns',
	'time_travel_requests',
	'turn_alternatives',
	'alternative_rows',
	'saves',
	'sqlite_sequence',
	'__kantera_migrations',
	// The record revision (db/record-revision.ts) counts writes, an undo's too: it only moves forward.
	'record_revision'
]);

function cell(value: unknown): unknown {
	if (value instanceof ArrayBuffer) return `x'${Buffer.from(value).toString('hex')}'`;
	if (ArrayBuffer.isView(value)) return `x'${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}'`;
	return value;
}

export type Dump = Record<string, unknown[][]>;

export interface DumpOptions {
	excluded?: ReadonlySet<string>;
	/** Columns dumped as null, by name (e.g. timestamps, when two databases written at different times are compared). */
	masked?: (column: string) => boolean;
}

export async function dumpSession(client: Client, opts: DumpOptions = {}): Promise<Dump> {
	const excluded = opts.excluded ?? DUMP_EXCLUDED;
	const masked = opts.masked ?? (() => false);
	const master = await client.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name");
	const all = master.rows.map((r) => ({ name: sqlText(r.name), sql: sqlText(r.sql ?? '') }));
	const virtual = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
	const fts = all.filter((t) => /USING fts5\(/i.test(t.sql)).map((t) => t.name);
	const dump: Dump = {};
	for (const { name } of all) {
		if (excluded.has(name) || name.startsWith('sqlite_') || name.startsWith('libsql_') || name.endsWith('_shadow')) continue;
		if (virtual.some((vt) => name === vt || name.startsWith(`${vt}_`))) continue;
		const rs = await client.execute(`SELECT rowid AS "__rowid", * FROM "${name}" ORDER BY rowid`);
		dump[name] = rs.rows.map((r) => rs.columns.map((column, i) => (masked(column) ? null : cell(r[i]))));
	}
	// What each full-text index holds, term by term with positions, through temporary vocabulary tables.
	const tx = await client.transaction('write');
	try {
		for (const table of fts) {
			await tx.execute(`CREATE VIRTUAL TABLE temp."v_${table}" USING fts5vocab(main, "${table}", 'instance')`);
			const rs = await tx.execute(`SELECT term, doc, col, offset FROM temp."v_${table}" ORDER BY term, doc, col, offset`);
			dump[`fts:${table}`] = rs.rows.map((r) => [r.term, r.doc, r.col, r.offset]);
		}
	} finally {
		await tx.rollback();
		tx.close();
	}
	return dump;
}

/** The tables whose rows differ between two dumps. */
export function changedTables(a: Dump, b: Dump): string[] {
	const names = new Set([...Object.keys(a), ...Object.keys(b)]);
	return [...names].filter((n) => JSON.stringify(a[n]) !== JSON.stringify(b[n])).sort();
}

/**
 * Copying a session database's records into another (migrated, empty) session database, row for row
 * under the same row ids: what a save slot stores and what loading it starts a branch from.
 *
 * Two ways. Between local files (the embedded default) the whole file is copied with `VACUUM INTO`
 * and what is not copied is then deleted from the copy (`withoutUncopied`): the full-text indexes come
 * along as they are (libSQL's VACUUM does re-insert every vector into the DiskANN index, which is most
 * of its cost; see docs/performance.md). Elsewhere (`copyDatabase`) it goes through the libSQL client
 * (one read transaction on the source, one write batch on the target), so it works on a remote libSQL
 * server or Turso. The full-text indexes are filled by the target's own triggers as the sections go
 * in; the word index is then rebuilt once, so each section's context has its neighbours on both sides
 * (the triggers only see the ones before it); the embedding and context queues and the vectors are
 * copied as they were, so nothing is embedded again.
 */
import type { Client, InArgs, InStatement, InValue } from '@libsql/client';
import { sqlText } from './text';
import { REVISION_TABLE } from './record-revision';

/** Records not copied: the event log and the ledger belong to the session that played them; save slots; the capture flag. */
const RECORDS_NOT_COPIED = ['events', 'ledger', 'saves', 'undo_capture'] as const;
/** Not copied: those records, and the schema bookkeeping the target has of its own (its record revision counts its own writes). */
const NOT_COPIED = new Set<string>([...RECORDS_NOT_COPIED, '__kantera_migrations', 'sqlite_sequence', REVISION_TABLE]);

/** Bound parameters per INSERT: far under SQLite's limit, large enough to keep the statements few. */
const PARAMS_PER_STATEMENT = 4_000;

interface TableInfo {
	name: string;
	ddl: string;
	columns: string[];
	/** The INTEGER PRIMARY KEY column, which is the rowid; otherwise the rowid is copied by name. */
	rowidColumn: string | undefined;
}

function ident(name: string): string {
	return `"${name.replaceAll('"', '""')}"`;
}

const isInternal = (name: string, virtualTables: readonly string[]) =>
	name.startsWith('sqlite_') ||
	name.startsWith('libsql_') ||
	name.endsWith('_shadow') ||
	virtualTables.some((vt) => name === vt || name.startsWith(`${vt}_`));

async function tablesOf(exec: Pick<Client, 'execute'>): Promise<TableInfo[]> {
	const rs = await exec.execute(
		'SELECT m.name AS tbl, m.sql AS ddl, p.name AS col, p.type AS type, p.pk AS pk FROM sqlite_master m, ' +
			"pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid"
	);
	const byName = new Map<string, { ddl: string; cols: { name: string; type: string; pk: number }[] }>();
	for (const r of rs.rows) {
		const name = sqlText(r.tbl);
		const t = byName.get(name) ?? { ddl: sqlText(r.ddl ?? ''), cols: [] };
		t.cols.push({ name: sqlText(r.col), type: sqlText(r.type ?? '').toUpperCase(), pk: Number(r.pk) });
		byName.set(name, t);
	}
	const virtualTables = [...byName].filter(([, t]) => /^CREATE VIRTUAL TABLE/i.test(t.ddl)).map(([n]) => n);
	return [...byName]
		.filter(([name]) => !NOT_COPIED.has(name) && !isInternal(name, virtualTables))
		.map(([name, t]) => {
			const keys = t.cols.filter((c) => c.pk > 0);
			const only = keys.length === 1 ? keys[0] : undefined;
			return { name, ddl: t.ddl, columns: t.cols.map((c) => c.name), rowidColumn: only?.type === 'INTEGER' ? only.name : undefined };
		});
}

/** Sections first (their triggers fill the queues, which are then replaced by the copied ones), the queues last. */
function copyOrder(a: TableInfo, b: TableInfo): number {
	const rank = (t: TableInfo) => (t.name === 'sections' ? 0 : t.name === 'embed_queue' || t.name === 'context_queue' ? 2 : 1);
	return rank(a) - rank(b) || a.name.localeCompare(b.name);
}

export interface CopyResult {
	tables: number;
	rows: number;
}

/**
 * Copies every record table of `source` into `target`, which must be freshly migrated (no rows). The
 * vector table, made at run time with its model's dimension, is created in the target first from the
 * source's own DDL. The AUTOINCREMENT counters are carried over, so the copy hands out no id the
 * source already used.
 */
export async function copyDatabase(source: Client, target: Client): Promise<CopyResult> {
	const read = await source.transaction('read');
	const statements: InStatement[] = [];
	let rows = 0;
	let tables: TableInfo[];
	try {
		tables = (await tablesOf(read)).sort(copyOrder);
		const selects = tables.map((table) => (table.rowidColumn ? table.columns : ['rowid', ...table.columns]));
		// Every read of the copy in one batch of the read transaction (one round trip to a remote
		// database), the target's schema read alongside it.
		const [present, [schema, ...results]] = await Promise.all([
			target.execute('SELECT name FROM sqlite_master WHERE sql IS NOT NULL'),
			read.batch([
				'SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE ' +
					"'undo\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END",
				...tables.map(
					(table, i) =>
						`SELECT ${(selects[i] ?? []).map((c) => (c === 'rowid' ? 'rowid' : ident(c))).join(', ')} FROM ${ident(table.name)} ORDER BY rowid`
				),
				'SELECT name, seq FROM sqlite_sequence'
			])
		]);
		const seq = results.pop();
		if (!schema || !seq || results.length !== tables.length) throw new Error('copy: the read batch returned too few results');
		// What the migrations don't make (the vector table, its index and the triggers on `sections` that
		// keep it) is made from the source's own DDL. The undo log's triggers are made on open.
		const have = new Set(present.rows.map((r) => sqlText(r.name)));
		const copied = new Set(tables.map((t) => t.name));
		for (const r of schema.rows) {
			const name = sqlText(r.name);
			if (have.has(name)) continue;
			if (!copied.has(sqlText(r.tbl)) && !copied.has(name)) continue;
			statements.push(sqlText(r.sql));
		}
		tables.forEach((table, t) => {
			const columns = selects[t] ?? [];
			const rs = results[t];
			if (!rs) return;
			// The sections triggers queued every copied section; the source's queues say what is really pending.
			if (table.name === 'embed_queue' || table.name === 'context_queue') statements.push(`DELETE FROM ${ident(table.name)}`);
			const perStatement = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length));
			const head = `INSERT INTO ${ident(table.name)} (${columns.map((c) => (c === 'rowid' ? 'rowid' : ident(c))).join(', ')}) VALUES `;
			const tuple = `(${columns.map(() => '?').join(', ')})`;
			for (let i = 0; i < rs.rows.length; i += perStatement) {
				const chunk = rs.rows.slice(i, i + perStatement);
				const args: InValue[] = [];
				for (const row of chunk) for (let c = 0; c < columns.length; c++) args.push(row[c] ?? null);
				statements.push({ sql: head + chunk.map(() => tuple).join(', '), args: args satisfies InArgs });
			}
			rows += rs.rows.length;
		});
		for (const r of seq.rows) {
			const name = sqlText(r.name);
			if (!tables.some((t) => t.name === name)) continue;
			statements.push({ sql: 'DELETE FROM sqlite_sequence WHERE name = ?', args: [name] });
			statements.push({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', args: [name, r.seq ?? 0] });
		}
	} finally {
		read.close();
	}
	if (tables.some((t) => t.name === 'sections')) {
		// Each section's word-index context has its neighbours after it too, as in the source.
		statements.push("INSERT INTO sections_words(sections_words) VALUES ('delete-all')");
		statements.push('INSERT INTO sections_words (rowid, path, body, context) SELECT id, path, body, context FROM sections_words_source');
	}
	await target.batch(statements, 'write');
	return { tables: tables.length, rows };
}

/**
 * After a whole-file copy: the records a copy does not carry are deleted from it, and their id
 * counters reset, so it holds what `copyDatabase` would have written.
 */
export async function withoutUncopied(target: Client): Promise<void> {
	const names = RECORDS_NOT_COPIED.map((n) => `'${n}'`).join(', ');
	await target.batch(
		[...RECORDS_NOT_COPIED.map((name) => `DELETE FROM ${ident(name)}`), `DELETE FROM sqlite_sequence WHERE name IN (${names})`],
		'write'
	);
}

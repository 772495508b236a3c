/**
 * Copying a session database's records into another (migrated, empty) session database, row for row
 * under the same row ids: what a save slot stores and what loading it starts a branch from.
 *
 * Two ways. Between local files (the embedded default) the whole file is copied page for page in one
 * read transaction (`copyDatabasePages` in file-client.ts) and what is not copied is then deleted from
 * the copy (`withoutUncopied`): every index, full-text and vector, comes along as it is. Elsewhere
 * (`copyDatabase`) it goes through the libSQL client (one read transaction on the source, one write
 * batch on the target), so it works on a remote libSQL server or Turso. The full-text indexes are
 * filled by the target's own triggers as the sections go in; the word index is then rebuilt once, so
 * each section's context has its neighbours on both sides (the triggers only see the ones before it);
 * the embedding and context queues and the vectors are copied as they were, so nothing is embedded
 * again, and so is the vector index's graph (its shadow table and settings row), with the index created
 * over it last, so libSQL does not insert every vector again.
 */
import type { Client, InArgs, InStatement, InValue, ResultSet, Transaction } from '@libsql/client';
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

/** libSQL's vector indexes keep their graph in `<index>_shadow` and their settings in this table. */
const VECTOR_META = 'libsql_vector_meta_shadow';

const TABLES_QUERY =
	'SELECT m.name AS tbl, m.sql AS ddl, p.name AS col, p.type AS type, p.pk AS pk FROM sqlite_master m, ' +
	"pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid";
const VECTOR_INDEXES_QUERY = "SELECT name, tbl_name AS tbl FROM sqlite_master WHERE type = 'index' AND sql LIKE '%libsql_vector_idx%'";

interface Layout {
	/** The record tables a copy carries. */
	tables: TableInfo[];
	/** Every table by name, internal ones included. */
	all: Map<string, TableInfo>;
	/** libSQL vector indexes: name and the table they index. */
	vectorIndexes: { name: string; table: string }[];
}

async function layoutOf(exec: Pick<Client, 'batch'> | Pick<Transaction, 'batch'>): Promise<Layout> {
	const [tablesRs, vectorsRs] = await exec.batch([TABLES_QUERY, VECTOR_INDEXES_QUERY]);
	const byName = new Map<string, { ddl: string; cols: { name: string; type: string; pk: number }[] }>();
	for (const r of tablesRs?.rows ?? []) {
		const name = sqlText(r.tbl);
		const t = byName.get(name) ?? { ddl: sqlText(r.ddl ?? ''), cols: [] };
		t.cols.push({ name: sqlText(r.col), type: sqlText(r.type ?? '').toUpperCase(), pk: Number(r.pk) });
		byName.set(name, t);
	}
	const virtualTables = [...byName].filter(([, t]) => /^CREATE VIRTUAL TABLE/i.test(t.ddl)).map(([n]) => n);
	const all = new Map(
		[...byName].map(([name, t]): [string, TableInfo] => {
			const keys = t.cols.filter((c) => c.pk > 0);
			const only = keys.length === 1 ? keys[0] : undefined;
			return [
				name,
				{ name, ddl: t.ddl, columns: t.cols.map((c) => c.name), rowidColumn: only?.type === 'INTEGER' ? only.name : undefined }
			];
		})
	);
	const tables = [...all.values()].filter((t) => !NOT_COPIED.has(t.name) && !isInternal(t.name, virtualTables));
	const vectorIndexes = (vectorsRs?.rows ?? []).map((r) => ({ name: sqlText(r.name), table: sqlText(r.tbl) }));
	return { tables, all, vectorIndexes };
}

/** Sections first (their triggers fill the queues, which are then replaced by the copied ones), the queues last. */
function copyOrder(a: TableInfo, b: TableInfo): number {
	const rank = (t: TableInfo) => (t.name === 'sections' ? 0 : t.name === 'embed_queue' || t.name === 'context_queue' ? 2 : 1);
	return rank(a) - rank(b) || a.name.localeCompare(b.name);
}

/** The columns a table's rows are read and written with: its own, and the rowid when no column is it. */
const selectedColumns = (table: TableInfo) => (table.rowidColumn ? table.columns : ['rowid', ...table.columns]);
const columnList = (columns: readonly string[]) => columns.map((c) => (c === 'rowid' ? 'rowid' : ident(c))).join(', ');

/** INSERTs of `rows` (read with `columns`) into `table`, a few thousand values per statement. */
function insertsOf(table: string, columns: readonly string[], rows: ResultSet['rows']): InStatement[] {
	const statements: InStatement[] = [];
	const perStatement = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length));
	const head = `INSERT INTO ${ident(table)} (${columnList(columns)}) VALUES `;
	const tuple = `(${columns.map(() => '?').join(', ')})`;
	for (let i = 0; i < rows.length; i += perStatement) {
		const chunk = rows.slice(i, i + perStatement);
		const args: InValue[] = [];
		for (const row of chunk) for (let c = 0; c < columns.length; c++) args.push(row[c] ?? null);
		statements.push({ sql: head + chunk.map(() => tuple).join(', '), args: args satisfies InArgs });
	}
	return statements;
}

export interface CopyResult {
	tables: number;
	rows: number;
	/** How the vector index came along: its graph copied as it was, or built again from the vectors (or there was none). */
	vectorIndex: 'copied' | 'rebuilt' | 'none';
}

export interface CopyOptions {
	/**
	 * `copy` (the default): the vector index's graph and settings rows are copied as they are and the
	 * index is created over them last, which libSQL then does not fill again (it finds its settings row
	 * there, as when a `.dump` is loaded); `rebuild`: the index is created before the vectors go in, so
	 * the target inserts each into its own graph, the cost of the copy on a remote server.
	 */
	vectorIndex?: 'copy' | 'rebuild';
}

/**
 * Copies every record table of `source` into `target`, which must be freshly migrated (no rows). The
 * vector table, made at run time with its model's dimension, is created in the target first from the
 * source's own DDL. The AUTOINCREMENT counters are carried over, so the copy hands out no id the
 * source already used.
 */
export async function copyDatabase(source: Client, target: Client, options: CopyOptions = {}): Promise<CopyResult> {
	const read = await source.transaction('read');
	const statements: InStatement[] = [];
	/** Statements that go last: the vector indexes' CREATE INDEX, over their copied graphs. */
	const last: InStatement[] = [];
	let rows = 0;
	let tables: TableInfo[];
	let vectorIndex: CopyResult['vectorIndex'] = 'none';
	try {
		const layout = await layoutOf(read);
		tables = layout.tables.sort(copyOrder);
		const copied = new Set(tables.map((t) => t.name));
		// The graphs copied as they are: a vector index of a copied table, with its shadow table and settings row there.
		const graphs =
			options.vectorIndex === 'rebuild' || !layout.all.has(VECTOR_META)
				? []
				: layout.vectorIndexes.filter((ix) => copied.has(ix.table) && layout.all.has(`${ix.name}_shadow`));
		const shadows = graphs.flatMap((ix) => {
			const shadow = layout.all.get(`${ix.name}_shadow`);
			return shadow ? [shadow] : [];
		});
		if (layout.vectorIndexes.some((ix) => copied.has(ix.table))) vectorIndex = graphs.length > 0 ? 'copied' : 'rebuilt';
		const withGraph = new Set(graphs.map((ix) => ix.name));
		const schemaOf = new Set([...copied, ...shadows.map((t) => t.name), ...(graphs.length > 0 ? [VECTOR_META] : [])]);
		const graphNames = graphs.map((ix) => ix.name);
		// Every read of the copy in one batch of the read transaction (one round trip to a remote
		// database), the target's schema read alongside it.
		const [present, [schema, ...results]] = await Promise.all([
			target.execute('SELECT name FROM sqlite_master WHERE sql IS NOT NULL'),
			read.batch([
				'SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE ' +
					"'undo\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END",
				...[...tables, ...shadows].map((table) => `SELECT ${columnList(selectedColumns(table))} FROM ${ident(table.name)} ORDER BY rowid`),
				graphNames.length > 0
					? { sql: `SELECT name, metadata FROM ${VECTOR_META} WHERE name IN (${graphNames.map(() => '?').join(', ')})`, args: graphNames }
					: 'SELECT NULL AS name, NULL AS metadata WHERE 0',
				'SELECT name, seq FROM sqlite_sequence'
			])
		]);
		const seq = results.pop();
		const meta = results.pop();
		if (!schema || !seq || !meta || results.length !== tables.length + shadows.length)
			throw new Error('copy: the read batch returned too few results');
		// What the migrations don't make (the vector table, its index and the triggers on `sections` that
		// keep it; the index's graph table and settings table) is made from the source's own DDL. The undo
		// log's triggers are made on open.
		const have = new Set(present.rows.map((r) => sqlText(r.name)));
		for (const r of schema.rows) {
			const name = sqlText(r.name);
			if (have.has(name)) continue;
			if (!schemaOf.has(sqlText(r.tbl)) && !schemaOf.has(name)) continue;
			(withGraph.has(name) ? last : statements).push(sqlText(r.sql));
		}
		[...tables, ...shadows].forEach((table, t) => {
			const rs = results[t];
			if (!rs) return;
			// The sections triggers queued every copied section; the source's queues say what is really pending.
			if (table.name === 'embed_queue' || table.name === 'context_queue') statements.push(`DELETE FROM ${ident(table.name)}`);
			statements.push(...insertsOf(table.name, selectedColumns(table), rs.rows));
			if (copied.has(table.name)) rows += rs.rows.length;
		});
		statements.push(...insertsOf(VECTOR_META, ['name', 'metadata'], meta.rows));
		for (const r of seq.rows) {
			const name = sqlText(r.name);
			if (!tables.some((t) => t.name === name)) continue;
			statements.push({ sql: 'DELETE FROM sqlite_sequence WHERE name = ?', args: [name] });
			statements.push({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', args: [name, r.seq ?? 0] });
		}
	} finally {
		read.close();
	}
	statements.push(...last);
	if (tables.some((t) => t.name === 'sections')) {
		// Each section's word-index context has its neighbours after it too, as in the source.
		statements.push("INSERT INTO sections_words(sections_words) VALUES ('delete-all')");
		statements.push('INSERT INTO sections_words (rowid, path, body, context) SELECT id, path, body, context FROM sections_words_source');
	}
	await target.batch(statements, 'write');
	return { tables: tables.length, rows, vectorIndex };
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

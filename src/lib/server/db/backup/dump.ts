/**
 * A logical copy of a libSQL database as JSON lines: its schema, then every row of every ordinary
 * table in rowid order, then the AUTOINCREMENT counters. FTS5 shadow tables and generated columns are
 * left out: they are rebuilt on import. A libSQL vector index's graph (`<index>_shadow`) and settings
 * (`libsql_vector_meta_shadow`) are ordinary tables here and come along as they are: the import creates
 * the index over them last, and libSQL, finding its settings row there, does not insert every vector
 * again (an export without them, from an earlier build, has the index built on import). The same
 * content always gives the same bytes, so the text's SHA-256 tells whether a database changed between
 * two backups.
 *
 *   {"format":"kantera-export","version":1}
 *   {"schema":[{"type","name","tbl_name","sql"}, …]}
 *   {"table":"journal","columns":["id","body",…]}
 *   [1,"The gate opens.",…]                       one line per row
 *   {"sequence":[["journal",12],…]}
 *   {"end":true,"tables":n,"rows":n}
 */
import * as v from 'valibot';
import type { Client, InStatement, ResultSet, Transaction } from '@libsql/client';
import { decodeValue, encodeValue, ExportValueSchema } from './values';
import { wipeDatabase } from '../wipe';
import { sqlText } from '../text';

const EXPORT_FORMAT = 'kantera-export';
/** Rows read per request: bounded memory, and few round trips to a remote database. */
const PAGE_ROWS = 500;
/** Rows written per batch on import. */
const INSERT_BATCH = 200;
const ROWID = '__kantera_rowid';

const SchemaRow = v.object({
	type: v.picklist(['table', 'index', 'trigger', 'view']),
	name: v.string(),
	tbl_name: v.string(),
	sql: v.string()
});
type SchemaRow = v.InferOutput<typeof SchemaRow>;
const Header = v.object({ format: v.literal(EXPORT_FORMAT), version: v.literal(1) });
const SchemaLine = v.object({ schema: v.array(SchemaRow) });
const TableLine = v.object({ table: v.string(), columns: v.array(v.string()) });
const RowLine = v.array(ExportValueSchema);
const SequenceLine = v.object({ sequence: v.array(v.tuple([v.string(), v.pipe(v.number(), v.integer())])) });
const EndLine = v.object({ end: v.literal(true), tables: v.number(), rows: v.number() });

export class DumpFormatError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'DumpFormatError';
	}
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const isVirtual = (sql: string) => /^\s*create\s+virtual\s+table/i.test(sql);
const isUniqueIndex = (s: SchemaRow) => s.type === 'index' && /^\s*create\s+unique\s+index/i.test(s.sql);
const isVectorIndex = (s: SchemaRow) => s.type === 'index' && /\blibsql_vector_idx\s*\(/i.test(s.sql);

interface Exec {
	execute(stmt: InStatement): Promise<ResultSet>;
}

/** Ordinary tables holding data of their own, and the schema objects to recreate them with. */
async function layout(tx: Exec): Promise<{ tables: string[]; schema: SchemaRow[] }> {
	const list = await tx.execute("SELECT name, type FROM pragma_table_list WHERE schema = 'main'");
	const skip = new Set(list.rows.filter((r) => r.type === 'shadow').map((r) => sqlText(r.name)));
	const master = await tx.execute(
		"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
	);
	const schema = master.rows
		.map((r) => v.parse(SchemaRow, { type: r.type, name: r.name, tbl_name: r.tbl_name, sql: r.sql }))
		.filter((r) => !skip.has(r.name) && !skip.has(r.tbl_name));
	const tables = schema.filter((r) => r.type === 'table' && !isVirtual(r.sql)).map((r) => r.name);
	return { tables, schema };
}

/** The columns a row is written with: generated columns are computed again on import (and refuse an INSERT). */
async function storedColumns(tx: Exec, table: string): Promise<string[]> {
	const rs = await tx.execute({ sql: 'SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid', args: [table] });
	return rs.rows.map((r) => sqlText(r.name));
}

async function hasRowid(tx: Exec, table: string): Promise<boolean> {
	try {
		await tx.execute(`SELECT rowid FROM ${quote(table)} LIMIT 0`);
		return true;
	} catch {
		return false;
	}
}

/**
 * Writes the database as export lines, inside one read transaction (a consistent snapshot even while
 * the server writes). `client` must use intMode `bigint` so 64-bit integers survive.
 */
export async function dumpDatabase(
	client: Client,
	write: (line: string) => void | Promise<void>
): Promise<{ tables: number; rows: number }> {
	const tx = await client.transaction('read');
	try {
		const { tables, schema } = await layout(tx);
		await write(JSON.stringify({ format: EXPORT_FORMAT, version: 1 }));
		await write(JSON.stringify({ schema }));
		let rows = 0;
		for (const table of tables) {
			const keyed = await hasRowid(tx, table);
			const columns = await storedColumns(tx, table);
			const list = columns.map(quote).join(', ');
			await write(JSON.stringify({ table, columns }));
			let after: unknown = null;
			for (;;) {
				// Keyset paging on rowid: each page is an index range, however large the table.
				const rs = !keyed
					? await tx.execute(`SELECT ${list} FROM ${quote(table)}`)
					: after === null
						? await tx.execute(`SELECT rowid AS ${ROWID}, ${list} FROM ${quote(table)} ORDER BY rowid LIMIT ${PAGE_ROWS}`)
						: await tx.execute({
								sql: `SELECT rowid AS ${ROWID}, ${list} FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE_ROWS}`,
								args: [BigInt(sqlText(after))]
							});
				for (const row of rs.rows) {
					const values = Array.from(row);
					if (keyed) after = values.shift();
					await write(JSON.stringify(values.map(encodeValue)));
					rows++;
				}
				if (!keyed || rs.rows.length < PAGE_ROWS) break;
			}
		}
		const hasSequence = (await tx.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'")).rows[0]?.[0];
		const sequence =
			Number(hasSequence) > 0
				? (await tx.execute('SELECT name, seq FROM sqlite_sequence ORDER BY name')).rows.map((r) => [sqlText(r.name), Number(r.seq)])
				: [];
		await write(JSON.stringify({ sequence }));
		await write(JSON.stringify({ end: true, tables: tables.length, rows }));
		return { tables: tables.length, rows };
	} finally {
		tx.close();
	}
}

function jsonOf(line: string, what: string): unknown {
	try {
		return JSON.parse(line);
	} catch {
		throw new DumpFormatError(`not JSON where ${what} was expected`);
	}
}

function parseLine<S extends v.GenericSchema>(schema: S, line: string | undefined, what: string): v.InferOutput<S> {
	if (line === undefined) throw new DumpFormatError(`the export ends early: expected ${what}`);
	const json = jsonOf(line, what);
	const parsed = v.safeParse(schema, json);
	if (!parsed.success) throw new DumpFormatError(`bad ${what}: ${parsed.issues[0].message}`);
	return parsed.output;
}

async function runAll(tx: Transaction, statements: InStatement[]) {
	for (let i = 0; i < statements.length; i += INSERT_BATCH) await tx.batch(statements.slice(i, i + INSERT_BATCH));
}

/**
 * Replaces the whole content of the database with an export, in one write transaction: it is emptied,
 * its tables are created and filled, then the FTS5 indexes are rebuilt from their content tables and
 * the indexes (vector indexes last of all, over their copied graphs), triggers and views created,
 * exactly as they were.
 */
export async function loadDatabase(
	client: Client,
	lines: AsyncIterable<string> | Iterable<string>
): Promise<{ tables: number; rows: number }> {
	const it =
		Symbol.asyncIterator in lines
			? lines[Symbol.asyncIterator]()
			: (async function* () {
					yield* lines;
				})();
	const next = async () => {
		for (;;) {
			const r = await it.next();
			if (r.done) return undefined;
			if (r.value.trim() !== '') return r.value;
		}
	};
	parseLine(Header, await next(), 'the export header');
	const { schema } = parseLine(SchemaLine, await next(), 'the schema');
	const tx = await client.transaction('write');
	try {
		// Tables are filled in schema order, not in foreign-key order: check the references at commit.
		await tx.execute('PRAGMA defer_foreign_keys = ON');
		await wipeDatabase(tx);
		for (const s of schema) if (s.type === 'table' && !isVirtual(s.sql)) await tx.execute(s.sql);
		// A foreign key may reference a column made unique by an index (not the primary key): without that
		// index, inserting a referencing row is a schema error, deferred foreign keys or not.
		for (const s of schema) if (isUniqueIndex(s)) await tx.execute(s.sql);
		const known = new Set(schema.filter((s) => s.type === 'table').map((s) => s.name));
		let tables = 0;
		let rows = 0;
		let line = await next();
		let sequence: Array<[string, number]> = [];
		for (;;) {
			if (line === undefined) throw new DumpFormatError('the export ends early: no end line');
			const json = jsonOf(line, 'a table, the counters or the end');
			if (v.is(EndLine, json)) {
				if (json.tables !== tables || json.rows !== rows)
					throw new DumpFormatError(
						`the export is incomplete: ${tables} tables and ${rows} rows read, ${json.tables} and ${json.rows} announced`
					);
				break;
			}
			if (v.is(SequenceLine, json)) {
				sequence = json.sequence;
				line = await next();
				continue;
			}
			const { table, columns } = parseLine(TableLine, line, 'a table line');
			if (!known.has(table)) throw new DumpFormatError(`rows for table ${table}, which the schema does not have`);
			tables++;
			const insert = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
			let pending: InStatement[] = [];
			for (line = await next(); line !== undefined && line.startsWith('['); line = await next()) {
				const values = parseLine(RowLine, line, `a row of ${table}`);
				if (values.length !== columns.length)
					throw new DumpFormatError(`a row of ${table} has ${values.length} values for ${columns.length} columns`);
				pending.push({ sql: insert, args: values.map(decodeValue) });
				rows++;
				if (pending.length >= INSERT_BATCH) {
					await runAll(tx, pending);
					pending = [];
				}
			}
			await runAll(tx, pending);
		}
		// Derived structures last, from the restored rows.
		for (const s of schema) {
			if (s.type !== 'table' || !isVirtual(s.sql)) continue;
			await tx.execute(s.sql);
			const content = /\bcontent\s*=\s*'([^']+)'/i.exec(s.sql);
			if (/\busing\s+fts5\s*\(/i.test(s.sql) && content)
				await tx.execute(`INSERT INTO ${quote(s.name)}(${quote(s.name)}) VALUES ('rebuild')`);
		}
		// Vector indexes after the other indexes (their graph table's among them); views before triggers: an
		// INSTEAD OF trigger names its view (the record revision's commit guard).
		const vectorIndexes = schema.filter(isVectorIndex);
		for (const kind of ['index', 'view', 'trigger'] as const)
			for (const s of schema) if (s.type === kind && !isUniqueIndex(s) && !isVectorIndex(s)) await tx.execute(s.sql);
		for (const s of vectorIndexes) await tx.execute(s.sql);
		if (sequence.length > 0) {
			await tx.execute('DELETE FROM sqlite_sequence');
			await runAll(
				tx,
				sequence.map(([name, seq]) => ({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', args: [name, BigInt(seq)] }))
			);
		}
		await tx.commit();
		return { tables, rows };
	} catch (err) {
		await tx.rollback();
		throw err;
	} finally {
		tx.close();
	}
}

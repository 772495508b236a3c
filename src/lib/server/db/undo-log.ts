/**
 * The undo log: what it takes to put back every row a turn's commit wrote.
 *
 * The classic SQLite undo pattern (sqlite.org/undoredo.html), kept per turn. Each captured table has
 * three triggers that, while `undo_capture` holds the committing turn's id, note the row the statement
 * touched the first time the turn touches it: "delete this row" for a row the turn created, "put this
 * row back" (the old row as JSON) for one it changed or deleted. The capture row is written and
 * removed inside the commit's own transaction, so:
 *   - nothing else is captured (the event log, leases, the embedder, the image runner and the
 *     player's own edits write outside it) and a failed commit leaves no log;
 *   - it costs one small insert per row the turn wrote, in the same durable commit: no extra round
 *     trip on a remote libSQL server, no file copy, no second transaction;
 *   - it holds whatever the turn's tools and the commit itself wrote — state, journal, notes, story
 *     DB, play log, sections, NPCs, places, stage cues, image orders, summaries, meta — without the
 *     records code knowing about it.
 *
 * The triggers are generated from the live schema (`PRAGMA table_info`) when a database is opened,
 * not written by hand in a migration: a migration that adds a table or a column (any helper's) is
 * captured with it, and a stale trigger (other columns) is replaced. Tables left out are listed in
 * UNCAPTURED with the reason; FTS and vector-index tables are left out as derived data (their own
 * triggers follow `sections`).
 *
 * The row id is the key (`rowid`, which is the `id` column of the integer-keyed tables), so a row is
 * put back under the same id. Ids are not handed out again: the AUTOINCREMENT counters
 * (`sqlite_sequence`) are not rolled back, so an open screen, an image job or a cache that still
 * holds an id from an undone turn can never mistake a new record for it.
 */
import type { Client, InStatement, ResultSet } from '@libsql/client';
import { sql } from 'drizzle-orm';
import type { SessionTx } from './session';
import { sqlText } from './text';
import { guardTrigger, REVISION_SCHEMA, REVISION_TABLE, revisionTriggersFor } from './record-revision';

/** Tables the undo log does not capture, and why. */
const UNCAPTURED: Readonly<Record<string, string>> = Object.freeze({
	turns: 'an undo removes the undone turns rows itself (their before-image is "running")',
	events: 'the event log is history: the undo adds an event, it never removes one',
	ledger: 'what was spent stays spent',
	undo_log: 'the undo log itself',
	undo_capture: 'the undo log itself',
	undone_turns: 'time-travel bookkeeping',
	time_travel_requests: 'time-travel bookkeeping',
	saves: 'save slots outlive the turns around them',
	turn_alternatives: 'time-travel bookkeeping: the swipes of a line',
	alternative_rows: 'time-travel bookkeeping: the records of swipes not on screen',
	embed_queue: 'derived: filled by the sections triggers, drained by the embedder',
	context_queue: 'derived: filled by the sections triggers, drained after each commit',
	section_vectors: 'derived: the embedder writes it after the commit; deleted with its section',
	[REVISION_TABLE]: 'the record revision counter (db/record-revision.ts): it only moves forward',
	__kantera_migrations: 'schema bookkeeping'
});

/** SQLite's, libSQL's and FTS/vector-index internals: never record tables. */
function isInternal(name: string, virtualTables: readonly string[]): boolean {
	return (
		name.startsWith('sqlite_') ||
		name.startsWith('libsql_') ||
		name.endsWith('_shadow') ||
		virtualTables.some((vt) => name === vt || name.startsWith(`${vt}_`))
	);
}

interface CapturedColumn {
	name: string;
	type: string;
	/** Part of the primary key (1-based position), 0 otherwise. */
	pk: number;
}

export interface CapturedTable {
	name: string;
	columns: CapturedColumn[];
	/** The table's INTEGER PRIMARY KEY column is its rowid: restoring that column restores the rowid. */
	rowidColumn: string | undefined;
}

/** Runs a read query and returns its rows (a libSQL client's or a drizzle transaction's). */
export type RowQuery = (text: string) => Promise<ReadonlyArray<Record<string, unknown>>>;

export const clientQuery =
	(client: Pick<Client, 'execute'>): RowQuery =>
	async (text) =>
		(await client.execute(text)).rows;

export const txQuery =
	(tx: Pick<SessionTx, 'all'>): RowQuery =>
	(text) =>
		tx.all<Record<string, unknown>>(sql.raw(text));

export const SCHEMA_QUERY =
	'SELECT m.name AS tbl, m.sql AS ddl, p.name AS col, p.type AS type, p.pk AS pk FROM sqlite_master m, ' +
	"pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid";

/** The tables the undo log captures, with their columns, read from the live schema. */
export async function capturedTables(query: RowQuery): Promise<CapturedTable[]> {
	return capturedTablesOf(await query(SCHEMA_QUERY));
}

/** `capturedTables` from the rows of its schema read (SCHEMA_QUERY, run elsewhere). */
export function capturedTablesOf(rows: ReadonlyArray<Record<string, unknown>>): CapturedTable[] {
	const byTable = new Map<string, { ddl: string; columns: CapturedColumn[] }>();
	for (const r of rows) {
		const tbl = sqlText(r.tbl);
		let entry = byTable.get(tbl);
		if (!entry) {
			entry = { ddl: sqlText(r.ddl ?? ''), columns: [] };
			byTable.set(tbl, entry);
		}
		entry.columns.push({ name: sqlText(r.col), type: sqlText(r.type ?? '').toUpperCase(), pk: Number(r.pk) });
	}
	const virtualTables = [...byTable].filter(([, t]) => /^CREATE VIRTUAL TABLE/i.test(t.ddl)).map(([name]) => name);
	const tables: CapturedTable[] = [];
	for (const [name, t] of byTable) {
		if (name in UNCAPTURED || isInternal(name, virtualTables)) continue;
		for (const c of t.columns) {
			// JSON holds no blobs; a record table with one needs its own encoding here first.
			if (c.type.includes('BLOB')) throw new Error(`undo log: ${name}.${c.name} is a BLOB column; encode it or list ${name} in UNCAPTURED`);
		}
		const keys = t.columns.filter((c) => c.pk > 0);
		const only = keys.length === 1 ? keys[0] : undefined;
		tables.push({ name, columns: t.columns, rowidColumn: only && only.type === 'INTEGER' ? only.name : undefined });
	}
	return tables;
}

function ident(name: string): string {
	return `"${name.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
	return `'${text.replaceAll("'", "''")}'`;
}

/** `'$."col"'`: the JSON path of a column in a before-image. */
function jsonPath(column: string): string {
	return literal(`$."${column.replaceAll('"', '""')}"`);
}

const CAPTURING = 'EXISTS (SELECT 1 FROM undo_capture)';

/** Notes `row` of `table` for the capturing turn, unless the turn already noted it (its first state wins). */
function noteRow(table: string, row: string, before: string, when = ''): string {
	return (
		`INSERT INTO undo_log (turn_id, tbl, row_id, before) SELECT c.turn_id, ${literal(table)}, ${row}, ${before} FROM undo_capture c ` +
		`WHERE ${when}NOT EXISTS (SELECT 1 FROM undo_log u WHERE u.turn_id = c.turn_id AND u.tbl = ${literal(table)} AND u.row_id = ${row});`
	);
}

/** The CREATE TRIGGER statements for one table, by trigger name. */
function triggersFor(table: CapturedTable): Map<string, string> {
	const t = ident(table.name);
	const image = `json_object(${table.columns.map((c) => `${literal(c.name)}, old.${ident(c.name)}`).join(', ')})`;
	const base = `undo_${table.name}`;
	// An update that moves a row to another rowid leaves a row to delete under the new one too.
	const moved = noteRow(table.name, 'new.rowid', 'NULL', 'new.rowid IS NOT old.rowid AND ');
	return new Map([
		[
			`${base}_ins`,
			`CREATE TRIGGER ${ident(`${base}_ins`)} AFTER INSERT ON ${t} WHEN ${CAPTURING} BEGIN ${noteRow(table.name, 'new.rowid', 'NULL')} END`
		],
		[
			`${base}_upd`,
			`CREATE TRIGGER ${ident(`${base}_upd`)} AFTER UPDATE ON ${t} WHEN ${CAPTURING} BEGIN ${noteRow(table.name, 'old.rowid', image)} ${moved} END`
		],
		[
			`${base}_del`,
			`CREATE TRIGGER ${ident(`${base}_del`)} AFTER DELETE ON ${t} WHEN ${CAPTURING} BEGIN ${noteRow(table.name, 'old.rowid', image)} END`
		]
	]);
}

const TRIGGERS_QUERY =
	"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND (name LIKE 'undo\\_%' ESCAPE '\\' OR name LIKE 'rev\\_%' ESCAPE '\\')";

/** What `undoTriggerChanges` reads: run them anywhere (after the migrations, in their batch) and hand it the results. */
export const UNDO_TRIGGER_READS: readonly string[] = [SCHEMA_QUERY, TRIGGERS_QUERY];

/**
 * The statements that bring the capture triggers, and the record revision's counting triggers and
 * commit guard (db/record-revision.ts), in line with the live schema, from the results of
 * UNDO_TRIGGER_READS: create missing ones, replace those whose text differs (a column was added), drop
 * those of tables that are gone. None when nothing changed; otherwise one write batch, the counter and
 * the guard view first (the triggers name them; IF NOT EXISTS: they are kept).
 */
export function undoTriggerChanges(schema: Pick<ResultSet, 'rows'>, triggers: Pick<ResultSet, 'rows'>): InStatement[] {
	const statements = triggerChanges(schema, triggers);
	return statements.length > 0 ? [...REVISION_SCHEMA, ...statements] : [];
}

/** `undoTriggerChanges` without the counter and guard view it puts first. */
function triggerChanges(schema: Pick<ResultSet, 'rows'>, triggers: Pick<ResultSet, 'rows'>): InStatement[] {
	const wanted = new Map<string, string>(guardTrigger());
	for (const table of capturedTablesOf(schema.rows)) {
		for (const [name, ddl] of triggersFor(table)) wanted.set(name, ddl);
		for (const [name, ddl] of revisionTriggersFor(table)) wanted.set(name, ddl);
	}
	const existing = new Map(triggers.rows.map((r) => [sqlText(r.name), sqlText(r.sql)]));
	const statements: InStatement[] = [];
	for (const [name, ddl] of existing) if (wanted.get(name) !== ddl) statements.push(`DROP TRIGGER ${ident(name)}`);
	for (const [name, ddl] of wanted) if (existing.get(name) !== ddl) statements.push(ddl);
	return statements;
}

/**
 * Brings the triggers in line with the live schema (see `undoTriggerChanges`): one read batch when
 * nothing changed; the changes go in one write transaction. Returns how many triggers it dropped or created.
 */
export async function ensureUndoTriggers(client: Client): Promise<number> {
	const [schema, triggers] = await client.batch([...UNDO_TRIGGER_READS], 'read');
	if (!schema || !triggers) throw new Error('undo log: the schema reads returned no result');
	const statements = triggerChanges(schema, triggers);
	if (statements.length > 0) await client.batch([...REVISION_SCHEMA, ...statements], 'write');
	return statements.length;
}

/** Starts capturing `turnId`'s writes; call first thing in its commit's transaction. */
export async function beginCapture(tx: SessionTx, turnId: string): Promise<void> {
	await tx.run(sql`INSERT INTO undo_capture (turn_id) VALUES (${turnId})`);
}

/** `beginCapture` and `endCapture` as statements, for a commit that is one write batch (turn/staging.ts). */
export function captureStatements(turnId: string): { begin: InStatement; end: InStatement } {
	return { begin: { sql: 'INSERT INTO undo_capture (turn_id) VALUES (?)', args: [turnId] }, end: 'DELETE FROM undo_capture' };
}

/** Stops capturing; call last thing in the commit's transaction (a rolled-back commit leaves nothing either way). */
export async function endCapture(tx: SessionTx): Promise<void> {
	await tx.run(sql`DELETE FROM undo_capture`);
}

/** The read `rollBackStatements` needs: how many rows each of `turnIds` logged per table. */
export function touchedQuery(turnIds: readonly string[]): InStatement {
	return {
		sql: `SELECT turn_id, tbl, count(*) AS n FROM undo_log WHERE turn_id IN (${turnIds.map(() => '?').join(', ')}) GROUP BY turn_id, tbl ORDER BY tbl`,
		args: [...turnIds]
	};
}

/** The ids of the rows of `table` the commits of `turnIds` wrote, each once (`id`), as a plain statement. */
export function rowIdsQuery(table: string, turnIds: readonly string[]): InStatement {
	return {
		sql: `SELECT DISTINCT row_id AS id FROM undo_log WHERE tbl = ? AND turn_id IN (${turnIds.map(() => '?').join(', ')})`,
		args: [table, ...turnIds]
	};
}

/**
 * The statements that put back every row the commits of `turnIds` (newest first) wrote, as they were
 * before, and drop their log, from the rows of `touchedQuery`: one batch inside a write transaction.
 * Per turn, first every row the turn touched goes, then the before-images come back: a row the turn
 * renamed can't collide with the one it created under the old name.
 */
export function rollBackStatements(
	turnIds: readonly string[],
	touched: ReadonlyArray<Record<string, unknown>>,
	tables: readonly CapturedTable[]
): { statements: InStatement[]; rows: number } {
	const known = new Map(tables.map((t) => [t.name, t]));
	const statements: InStatement[] = [];
	let rows = 0;
	for (const turnId of turnIds) {
		const restore: CapturedTable[] = [];
		for (const r of touched) {
			if (sqlText(r.turn_id) !== turnId) continue;
			const tbl = sqlText(r.tbl);
			const table = known.get(tbl);
			if (!table) throw new Error(`undo log of turn ${turnId} names table ${tbl}, which is not a captured table any more`);
			statements.push(
				`DELETE FROM ${ident(tbl)} WHERE rowid IN (SELECT row_id FROM undo_log WHERE turn_id = ${literal(turnId)} AND tbl = ${literal(tbl)})`
			);
			restore.push(table);
			rows += Number(r.n);
		}
		for (const table of restore) {
			const columns = table.columns.map((c) => ident(c.name));
			const values = table.columns.map((c) => `json_extract(before, ${jsonPath(c.name)})`);
			// A table keyed by an INTEGER PRIMARY KEY gets its rowid back with that column; others name it.
			const target = table.rowidColumn ? columns : ['rowid', ...columns];
			const source = table.rowidColumn ? values : ['row_id', ...values];
			statements.push(
				`INSERT INTO ${ident(table.name)} (${target.join(', ')}) SELECT ${source.join(', ')} FROM undo_log WHERE turn_id = ${literal(turnId)} ` +
					`AND tbl = ${literal(table.name)} AND before IS NOT NULL ORDER BY row_id`
			);
		}
		statements.push({ sql: 'DELETE FROM undo_log WHERE turn_id = ?', args: [turnId] });
	}
	return { statements, rows };
}

/**
 * The table `name` as the undo log sees one (its columns, its rowid column), captured or not: swipes
 * keep the `turns` rows of an alternative beside its records. Undefined if there is no such table.
 */
export function tableOf(rows: ReadonlyArray<Record<string, unknown>>, name: string): CapturedTable | undefined {
	const columns = rows
		.filter((r) => sqlText(r.tbl) === name)
		.map((r) => ({ name: sqlText(r.col), type: sqlText(r.type ?? '').toUpperCase(), pk: Number(r.pk) }));
	if (columns.length === 0) return undefined;
	const keys = columns.filter((c) => c.pk > 0);
	const only = keys.length === 1 ? keys[0] : undefined;
	return { name, columns, rowidColumn: only && only.type === 'INTEGER' ? only.name : undefined };
}

function rowImage(table: CapturedTable, alias: string): string {
	return `json_object(${table.columns.map((c) => `${literal(c.name)}, ${alias}.${ident(c.name)}`).join(', ')})`;
}

/**
 * Swipes (issue 24): the statements that set aside what the commits of `turnIds` wrote under the
 * alternative `key` before they are rolled back: each undo-log row with the row as it stands now (its
 * after-image, null if the turns deleted it), and the turns' own rows (`turns`, whose columns are
 * `turnsTable`). Run them in the rolling-back transaction, before `rollBackStatements`; `redoStatements`
 * brings it all back.
 */
export function stashStatements(
	key: string,
	turnIds: readonly string[],
	touched: ReadonlyArray<Record<string, unknown>>,
	tables: readonly CapturedTable[],
	turnsTable: CapturedTable
): InStatement[] {
	const known = new Map(tables.map((t) => [t.name, t]));
	const ids = turnIds.map(literal).join(', ');
	const statements: InStatement[] = [];
	for (const tbl of new Set(touched.map((r) => sqlText(r.tbl)))) {
		const table = known.get(tbl);
		if (!table) throw new Error(`undo log names table ${tbl}, which is not a captured table any more`);
		statements.push({
			sql:
				'INSERT INTO alternative_rows (turn_key, turn_id, tbl, row_id, before, after) SELECT ?, u.turn_id, u.tbl, u.row_id, u.before, ' +
				`(SELECT ${rowImage(table, 't')} FROM ${ident(tbl)} t WHERE t.rowid = u.row_id) FROM undo_log u WHERE u.tbl = ? AND u.turn_id IN (${ids})`,
			args: [key, tbl]
		});
	}
	statements.push({
		sql:
			"INSERT INTO alternative_rows (turn_key, turn_id, tbl, row_id, before, after) SELECT ?, t.id, 'turns', t.rowid, NULL, " +
			`${rowImage(turnsTable, 't')} FROM turns t WHERE t.id IN (${ids})`,
		args: [key]
	});
	return statements;
}

/** The read `redoStatements` needs: the tables alternative `key` holds rows of. */
export function stashedTablesQuery(key: string): InStatement {
	return { sql: 'SELECT DISTINCT tbl FROM alternative_rows WHERE turn_key = ? ORDER BY tbl', args: [key] };
}

/**
 * The statements that bring alternative `key` back as `stashStatements` set it aside, over records
 * that are as they were before it (its turns rolled back, or another alternative's): every row it
 * wrote as it left it, its turn rows, its undo log; then its stash goes. From the rows of
 * `stashedTablesQuery`; one batch inside a write transaction.
 */
export function redoStatements(
	key: string,
	stashed: ReadonlyArray<Record<string, unknown>>,
	tables: readonly CapturedTable[]
): InStatement[] {
	const known = new Map(tables.map((t) => [t.name, t]));
	const statements: InStatement[] = [];
	for (const r of stashed) {
		const tbl = sqlText(r.tbl);
		const table = known.get(tbl);
		if (!table) throw new Error(`a swipe holds rows of table ${tbl}, which is not a table any more`);
		const where = `FROM alternative_rows WHERE turn_key = ${literal(key)} AND tbl = ${literal(tbl)}`;
		statements.push(`DELETE FROM ${ident(tbl)} WHERE rowid IN (SELECT row_id ${where})`);
		const columns = table.columns.map((c) => ident(c.name));
		// A row two of its turns wrote is there twice, with the same after-image: it goes back once.
		const values = table.columns.map((c) => `json_extract(min(after), ${jsonPath(c.name)})`);
		const target = table.rowidColumn ? columns : ['rowid', ...columns];
		const source = table.rowidColumn ? values : ['row_id', ...values];
		statements.push(
			`INSERT INTO ${ident(tbl)} (${target.join(', ')}) SELECT ${source.join(', ')} ${where} AND after IS NOT NULL GROUP BY row_id ORDER BY row_id`
		);
	}
	statements.push(
		{
			sql: "INSERT INTO undo_log (turn_id, tbl, row_id, before) SELECT turn_id, tbl, row_id, before FROM alternative_rows WHERE turn_key = ? AND tbl <> 'turns'",
			args: [key]
		},
		{ sql: 'DELETE FROM alternative_rows WHERE turn_key = ?', args: [key] }
	);
	return statements;
}

/** Bytes the undo log holds (keys and before-images), for the benchmark and diagnostics. */
export async function undoLogBytes(tx: Pick<SessionTx, 'all'>): Promise<number> {
	const [row] = await tx.all<{ n: number | null }>(
		sql`SELECT sum(length(turn_id) + length(tbl) + 8 + coalesce(length(before), 0)) AS n FROM undo_log`
	);
	return Number(row?.n ?? 0);
}

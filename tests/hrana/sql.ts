/**
 * Executing Hrana statements on one libSQL connection (the `libsql` package, the engine @libsql/client
 * uses for local files). Values keep their SQLite types across the wire: integers travel as decimal
 * strings and are bound as 64-bit integers, floats are bound as REAL, exactly as a libSQL server does.
 */
import Database from 'libsql';
import type { Batch, BatchCond, BatchResult, Col, CursorEntry, HranaError, Stmt, StmtResult, Value } from './protocol';

export type Connection = InstanceType<typeof Database>;

/** A statement that failed: becomes a Hrana `Error` for the client. */
export class StmtError extends Error {
	constructor(
		message: string,
		readonly code: string
	) {
		super(message);
		this.name = 'StmtError';
	}
}

/** A writer holds the database: the caller waits and tries again, as SQLite's busy handler would. */
export class BusyError extends StmtError {}

export function toHranaError(err: unknown): HranaError {
	if (err instanceof StmtError) return { message: err.message, code: err.code };
	if (err instanceof Error) return { message: err.message, code: 'code' in err && typeof err.code === 'string' ? err.code : 'UNKNOWN' };
	return { message: String(err), code: 'UNKNOWN' };
}

export function sqliteError(err: unknown): StmtError {
	if (err instanceof StmtError) return err;
	const message = err instanceof Error ? err.message : String(err);
	const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'SQLITE_ERROR';
	// The message starts with "SQLite error:" on a libSQL server; clients match on the SQLite text after it.
	if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new BusyError(message, code);
	return new StmtError(message, code);
}

function bindValue(value: Value): unknown {
	switch (value.type) {
		case 'null':
			return null;
		case 'integer':
			return BigInt(value.value);
		case 'float':
			return value.value;
		case 'text':
			return value.value;
		case 'blob':
			return Buffer.from(value.base64, 'base64');
	}
}

function toValue(raw: unknown): Value {
	if (raw === null || raw === undefined) return { type: 'null' };
	if (typeof raw === 'bigint') return { type: 'integer', value: raw.toString() };
	if (typeof raw === 'number') return Number.isInteger(raw) ? { type: 'integer', value: String(raw) } : { type: 'float', value: raw };
	if (typeof raw === 'string') return { type: 'text', value: raw };
	if (raw instanceof Uint8Array) return { type: 'blob', base64: Buffer.from(raw).toString('base64') };
	if (raw instanceof ArrayBuffer) return { type: 'blob', base64: Buffer.from(raw).toString('base64') };
	throw new StmtError(`cannot encode a ${typeof raw} value`, 'INTERNAL');
}

/** SQL texts stored on a stream with `store_sql`, looked up by `sql_id`. */
export type SqlStore = Map<number, string>;

export function sqlText(ref: { sql?: string | null; sql_id?: number | null }, stored: SqlStore): string {
	if (typeof ref.sql === 'string' && (ref.sql_id === undefined || ref.sql_id === null)) return ref.sql;
	if (typeof ref.sql_id === 'number' && (ref.sql === undefined || ref.sql === null)) {
		const sql = stored.get(ref.sql_id);
		if (sql === undefined) throw new StmtError(`SQL text ${ref.sql_id} was not stored on this stream`, 'SQL_NOT_FOUND');
		return sql;
	}
	throw new StmtError('exactly one of sql and sql_id must be given', 'SQL_NO_STATEMENT');
}

function changesProbe(conn: Connection): { total: number } {
	const row: unknown = conn.prepare('SELECT total_changes() AS t').get();
	const t = typeof row === 'object' && row !== null && 't' in row ? Number(row.t) : 0;
	return { total: t };
}

function lastChange(conn: Connection): { changes: number; rowid: string } {
	const stmt = conn.prepare('SELECT changes(), last_insert_rowid()');
	stmt.safeIntegers(true);
	const row: unknown = stmt.raw(true).get();
	const values = Array.isArray(row) ? row : [];
	return { changes: Number(values[0] ?? 0), rowid: String(values[1] ?? 0) };
}

/** Runs one statement. Throws StmtError (BusyError when the database is locked by another connection). */
export function executeStmt(conn: Connection, stmt: Stmt, stored: SqlStore): StmtResult {
	const sql = sqlText(stmt, stored);
	try {
		const prepared = conn.prepare(sql);
		prepared.safeIntegers(true);
		const positional = (stmt.args ?? []).map(bindValue);
		const named: Record<string, unknown> = {};
		for (const arg of stmt.named_args ?? []) named[arg.name.replace(/^[:@$]/, '')] = bindValue(arg.value);
		const params = stmt.named_args?.length ? [...positional, named] : positional;
		const before = changesProbe(conn).total;
		let cols: Col[] = [];
		let rows: Value[][] = [];
		if (prepared.reader) {
			prepared.raw(true);
			cols = prepared.columns().map((c) => ({ name: c.name, decltype: c.type }));
			const all = prepared.all(...params);
			if (stmt.want_rows !== false) rows = all.map((r) => (Array.isArray(r) ? r.map(toValue) : []));
		} else {
			prepared.run(...params);
		}
		// changes() keeps the count of the last INSERT/UPDATE/DELETE, even across later SELECTs and DDL:
		// only report it when this statement changed something.
		const changed = changesProbe(conn).total !== before;
		const last = changed ? lastChange(conn) : undefined;
		return { cols, rows, affected_row_count: last?.changes ?? 0, last_insert_rowid: last ? last.rowid : null };
	} catch (err) {
		throw sqliteError(err);
	}
}

function evalCond(cond: BatchCond, outcomes: Array<'ok' | 'error' | 'skipped'>, inTransaction: () => boolean): boolean {
	switch (cond.type) {
		case 'ok':
			return outcomes[cond.step] === 'ok';
		case 'error':
			return outcomes[cond.step] === 'error';
		case 'not':
			return !evalCond(cond.cond, outcomes, inTransaction);
		case 'and':
			return cond.conds.every((c) => evalCond(c, outcomes, inTransaction));
		case 'or':
			return cond.conds.some((c) => evalCond(c, outcomes, inTransaction));
		case 'is_autocommit':
			return !inTransaction();
	}
}

/** Runs `fn`, retrying while another connection holds the write lock (asynchronously, so other streams progress). */
export async function whenNotBusy<T>(fn: () => T, waitMs: number): Promise<T> {
	const deadline = Date.now() + waitMs;
	for (let delay = 1; ; delay = Math.min(delay * 2, 20)) {
		try {
			return fn();
		} catch (err) {
			if (!(err instanceof BusyError) || Date.now() >= deadline) throw err;
		}
		await new Promise((r) => setTimeout(r, delay));
	}
}

/** How a batch reaches its stream's connection: one statement at a time, and whether a transaction is open. */
export interface BatchTarget {
	execute(stmt: Stmt): Promise<StmtResult>;
	inTransaction(): boolean;
}

/** Runs a batch step by step; a failed step is reported in the result, not thrown. */
export async function executeBatch(target: BatchTarget, batch: Batch, onEntry?: (e: CursorEntry) => void): Promise<BatchResult> {
	const outcomes: Array<'ok' | 'error' | 'skipped'> = [];
	const result: BatchResult = { step_results: [], step_errors: [] };
	for (const [i, step] of batch.steps.entries()) {
		if (step.condition && !evalCond(step.condition, outcomes, () => target.inTransaction())) {
			outcomes.push('skipped');
			result.step_results.push(null);
			result.step_errors.push(null);
			continue;
		}
		try {
			const r = await target.execute(step.stmt);
			outcomes.push('ok');
			result.step_results.push(r);
			result.step_errors.push(null);
			if (onEntry) {
				onEntry({ type: 'step_begin', step: i, cols: r.cols });
				for (const row of r.rows) onEntry({ type: 'row', row });
				onEntry({ type: 'step_end', affected_row_count: r.affected_row_count, last_insert_rowid: r.last_insert_rowid });
			}
		} catch (err) {
			outcomes.push('error');
			result.step_results.push(null);
			const error = toHranaError(err);
			result.step_errors.push(error);
			onEntry?.({ type: 'step_error', step: i, error });
		}
	}
	return result;
}

/** `sequence`: several statements separated by semicolons, rows ignored, stops at the first failure. */
export function executeSequence(conn: Connection, sql: string): void {
	try {
		conn.exec(sql);
	} catch (err) {
		throw sqliteError(err);
	}
}

/** `describe`: what SQLite tells about a prepared statement without running it. */
export function describeStmt(
	conn: Connection,
	sql: string
): { params: Array<{ name: string | null }>; cols: Col[]; is_explain: boolean; is_readonly: boolean } {
	try {
		const prepared = conn.prepare(sql);
		const cols = prepared.reader ? prepared.columns().map((c) => ({ name: c.name, decltype: c.type })) : [];
		// The driver does not expose parameter names or sqlite3_stmt_readonly: read them off the SQL text.
		const params = [...sql.matchAll(/\?\d*|[:@$][A-Za-z_][A-Za-z0-9_]*/g)].map((m) => ({ name: m[0] === '?' ? null : m[0] }));
		const isExplain = /^\s*explain\b/i.test(sql);
		const isReadonly = /^\s*(select|explain)\b/i.test(sql);
		return { params, cols, is_explain: isExplain, is_readonly: isReadonly };
	} catch (err) {
		throw sqliteError(err);
	}
}

export function openConnection(file: string): Connection {
	const conn = new Database(file);
	// No busy wait inside SQLite: a blocked call would stop the whole server (one thread), including the
	// stream that holds the lock. Writers queue for the lock in the server instead (write-slot.ts).
	conn.exec('PRAGMA busy_timeout = 0');
	return conn;
}

/**
 * Staged writes for one turn. Every write of the turn is kept as an operation and applied for real
 * only at commit, together with the play-log messages, stage cues, image orders and cost ledger, in
 * one transaction. A failed or cancelled turn simply drops its operations: nothing was written.
 *
 * Reads inside the turn must see the staged writes, so each read (and each new write, to get its
 * result and fail early) runs in a speculative transaction that replays the staged operations and
 * is then rolled back. A turn stages a handful of operations, so replaying them costs a few
 * milliseconds, and the session database is never locked while the LLM is thinking: the event log,
 * leases and the player's own edits keep flowing.
 *
 * The commit is one write batch when it can be (`commitBatch`): one round trip to a remote database,
 * one durable transaction. Each speculative run of a new write records the statements the staged
 * writes sent, in order; the first one also reads the record revision (db/record-revision.ts) before
 * any of them ran. The batch is that recording (reads left out) plus the caller's own statements,
 * behind a guard that the revision is still the one read: then every record the staged writes read is
 * as it was, so they would send the very same statements again, and the ids the caller computed from
 * the same read are the ones the tables hand out. If anything changed, the guard aborts the batch
 * (nothing is written) and the caller commits the interactive way (`commit`), replaying the writes.
 */
import { sql } from 'drizzle-orm';
import type { InStatement, ResultSet } from '@libsql/client';
import {
	guardStatement,
	isConstraintAbort,
	REVISION_EXPR,
	toStatement,
	undoLog,
	type PlannedWrite,
	type SessionDb,
	type SessionExec,
	type SessionTx,
	type StagedWrite
} from '../db';
import { LAST_SEQ_EXPR } from './turns';

export type StagedOp = (tx: SessionTx) => Promise<unknown>;

/** What a one-batch commit is built on, read in one snapshot with the revision that vouches for it. */
export interface CommitBase {
	/** The record revision when the staged writes were first run (or at the commit, when there are none). */
	revision: number;
	/** The id the play log hands out next, before the staged writes ran. */
	nextLogId: number;
	/** The last committed turn's `seq` (0 before the first). */
	lastSeq: number;
	/** The id the journal hands out next, before the staged writes ran (planned journal entries take it). */
	nextJournalId: number;
}

/** The caller's part of a one-batch commit: its statements, and what it makes of their results. */
export interface BatchTail<T> {
	statements: InStatement[];
	result: (results: ResultSet[]) => T;
}

/** The id an AUTOINCREMENT table hands out next, as SQLite picks it (deleted rows' ids are not reused). */
const nextId = (table: string) =>
	`max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${table}'), 0), coalesce((SELECT max(id) FROM ${table}), 0)) + 1`;

/** Reads the commit base (one row); a turn reads it with what it starts from (turn/history.ts). */
export const BASE_QUERY =
	`SELECT ${REVISION_EXPR} AS revision, ${nextId('log_messages')} AS nextLogId, ` +
	`${LAST_SEQ_EXPR} AS lastSeq, ${nextId('journal')} AS nextJournalId`;

export function toBase(row: Record<string, unknown> | undefined): CommitBase {
	const int = (value: unknown) => {
		const n = typeof value === 'bigint' ? Number(value) : value;
		if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new Error(`commit base: ${String(value)} is not an integer`);
		return n;
	};
	return {
		revision: int(row?.revision),
		nextLogId: int(row?.nextLogId),
		lastSeq: int(row?.lastSeq),
		nextJournalId: int(row?.nextJournalId)
	};
}

/** Statements that only read: left out of the recorded batch (they change nothing, and their results were used already). */
const isRead = (statement: InStatement) => /^\s*select\b/i.test(typeof statement === 'string' ? statement : statement.sql);

/** Thrown inside a speculative transaction to roll it back; never escapes this module. */
class Speculation extends Error {
	constructor() {
		super('speculative transaction rolled back');
	}
}

export class Staging {
	private readonly ops: StagedOp[] = [];
	/** The writes every staged op sent in the last speculative run, in order; undefined when one could not be recorded. */
	private recorded: InStatement[] | undefined = [];
	/** Given (what the turn started from), or read in the first speculative run of a write, before any staged write ran. */
	private base: CommitBase | undefined;
	/** Planned journal entries staged so far: the next one's id is the base's plus this. */
	private plannedJournal = 0;

	constructor(
		private readonly session: SessionDb,
		base?: CommitBase
	) {
		this.base = base;
	}

	get size(): number {
		return this.ops.length;
	}

	/** Runs `fn` against the session as it will be once the staged writes commit. */
	async read<T>(fn: (exec: SessionExec) => Promise<T>): Promise<T> {
		if (this.ops.length === 0) return fn(this.session.db);
		return this.speculate(fn);
	}

	/**
	 * Stages a write. It runs at once on top of the staged writes, so a write that is invalid
	 * (duplicate note name, truth overwrite…) fails now and is not staged; its result is returned.
	 * A planned write (one that reads nothing) is not run: its checks are made in memory and its
	 * statements, under the id computed from the base, join the recording — no round trip. Its id is
	 * right as long as the guard holds (nothing written since the base: no entry the staged writes did
	 * not make), and an id taken meanwhile aborts the batch on the primary key like the guard does.
	 */
	async write<T>(w: StagedWrite<T>): Promise<T> {
		if (typeof w !== 'function') return this.writePlanned(w);
		const fn = w;
		// An object, not locals: the callbacks fill it in, out of the type checker's sight.
		const run: { statements: InStatement[]; complete: boolean; base?: CommitBase } = { statements: [], complete: true };
		const readBase = async (tx: SessionTx) => {
			run.base = toBase((await tx.all<Record<string, unknown>>(sql.raw(BASE_QUERY)))[0]);
		};
		const result = await this.speculate(fn, {
			before: this.base === undefined ? readBase : undefined,
			record: (statement) => {
				if (statement === undefined) run.complete = false;
				else if (!isRead(statement)) run.statements.push(statement);
			}
		});
		this.ops.push(fn);
		this.recorded = run.complete ? run.statements : undefined;
		this.base ??= run.base;
		return result;
	}

	private async writePlanned<T>(w: PlannedWrite<T>): Promise<T> {
		// Without a base to number it from, or after a write that could not be recorded: run it like any other.
		if (!this.base || !this.recorded) {
			const result = await this.write((tx) => w.run(tx));
			this.plannedJournal++;
			return result;
		}
		const planned = w.plan(this.session.db, this.base.nextJournalId + this.plannedJournal);
		this.ops.push((tx) => w.run(tx));
		this.recorded = [...this.recorded, ...planned.queries.map(toStatement)];
		this.plannedJournal++;
		return planned.result;
	}

	/**
	 * Applies every staged write and then `finalize`, in one transaction. With `undoAs`, every row the
	 * transaction writes is noted in the undo log under that turn id (db/undo-log.ts), in the same
	 * transaction: the turn can be taken back exactly.
	 */
	async commit<T>(finalize: (tx: SessionTx) => Promise<T>, options: { undoAs?: string } = {}): Promise<T> {
		return this.session.write(async (tx) => {
			if (options.undoAs !== undefined) await undoLog.beginCapture(tx, options.undoAs);
			for (const op of this.ops) await op(tx);
			const result = await finalize(tx);
			if (options.undoAs !== undefined) await undoLog.endCapture(tx);
			return result;
		});
	}

	/**
	 * Commits the staged writes and `tail` (built on the base the staged writes were recorded under) as
	 * one write batch, behind the guard that no record changed since that base was read and that the
	 * turn is still `owner`'s. With `undoAs`, captured in the undo log as `commit` does. Undefined when
	 * nothing was written and the caller must `commit` instead: a write could not be recorded, or the
	 * guard (or a computed id already taken) aborted the batch. `after`: reads run at the end of the same
	 * batch, on what it committed (their results come back as `after`): a caller's next look costs no
	 * round trip of its own.
	 */
	async commitBatch<T>(
		tail: (base: CommitBase) => BatchTail<T>,
		options: { turnId: string; owner: string; undoAs?: string; after?: readonly InStatement[] }
	): Promise<{ value: T; after: ResultSet[] } | undefined> {
		if (!this.recorded) return undefined;
		const base = this.base ?? toBase((await this.session.batch([BASE_QUERY], 'read'))[0]?.rows[0]);
		const own = tail(base);
		const capture = options.undoAs === undefined ? undefined : undoLog.captureStatements(options.undoAs);
		const head = [guardStatement(base.revision, options.turnId, options.owner), ...(capture ? [capture.begin] : []), ...this.recorded];
		const after = options.after ?? [];
		let results: ResultSet[];
		try {
			results = await this.session.batch([...head, ...own.statements, ...(capture ? [capture.end] : []), ...after], 'write');
		} catch (err) {
			if (isConstraintAbort(err)) return undefined;
			throw err;
		}
		return {
			value: own.result(results.slice(head.length, head.length + own.statements.length)),
			after: results.slice(results.length - after.length)
		};
	}

	private async speculate<T>(
		fn: (tx: SessionTx) => Promise<T>,
		options: { before?: (tx: SessionTx) => Promise<void>; record?: (statement: InStatement | undefined) => void } = {}
	): Promise<T> {
		let result: { value: T } | undefined;
		try {
			await this.session.write(
				async (tx) => {
					await options.before?.(tx);
					for (const op of this.ops) await op(tx);
					result = { value: await fn(tx) };
					throw new Speculation();
				},
				{ record: options.record }
			);
		} catch (err) {
			if (!(err instanceof Speculation)) throw err;
		}
		if (!result) throw new Error('speculative transaction produced no result');
		return result.value;
	}
}

/**
 * A drizzle query as a plain libSQL statement: its own SQL text and driver values, for the batches that
 * mix statements of several modules (a one-batch commit, the turn runner's reads) and send them through
 * `SessionDb.batch`.
 */
import type { InStatement, InValue } from '@libsql/client';
import type { SessionDrizzle, SessionTx } from './session';

/** Anything drizzle builds that can say its SQL. */
export interface BuiltQuery {
	toSQL(): { sql: string; params: unknown[] };
}

export function toStatement(query: BuiltQuery): InStatement {
	const { sql: text, params } = query.toSQL();
	return { sql: text, args: params.map(driverValue) };
}

function driverValue(value: unknown): InValue {
	if (
		value === null ||
		typeof value === 'string' ||
		typeof value === 'number' ||
		typeof value === 'bigint' ||
		typeof value === 'boolean' ||
		value instanceof Uint8Array ||
		value instanceof ArrayBuffer ||
		value instanceof Date
	)
		return value;
	throw new Error(`a query parameter of type ${typeof value} has no driver value`);
}

/**
 * A write that reads nothing: the row it inserts gets the next id of `table`, and given that id its
 * statements are known beforehand, its checks made in memory. A turn stages it with no round trip (its
 * id computed from what the turn started from; turn/staging.ts); `run` is the same write in a
 * transaction, its id handed out by the table, for replays.
 */
export interface PlannedWrite<T> {
	/** The AUTOINCREMENT table whose next id the write's row takes. */
	readonly table: 'journal';
	/** The write's queries and result with its row under `id`; throws where `run` would, before anything is sent. */
	plan(db: Pick<SessionDrizzle, 'insert'>, id: number): { queries: BuiltQuery[]; result: T };
	run(tx: SessionTx): Promise<T>;
}

/** What a turn's tools stage: a write in a transaction (it may read), or a planned one. */
export type StagedWrite<T> = ((tx: SessionTx) => Promise<T>) | PlannedWrite<T>;

/** drizzle-built queries as libSQL statements, for a batch built client-side. */
import type { InStatement, InValue } from '@libsql/client';

/** A built query as a statement for a batch: drizzle's own SQL text and driver values. */
export function queryStatement(query: { toSQL(): { sql: string; params: unknown[] } }): InStatement {
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

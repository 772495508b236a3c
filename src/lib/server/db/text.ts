/**
 * A libSQL column value as text, for the catalogue columns (names, DDL, types, tags) that SQLite keeps as
 * TEXT. `String()` alone would print a BLOB as "[object ArrayBuffer]": a BLOB where text belongs is a broken
 * schema, so it throws instead. Every other value prints as `String()` prints it.
 */
export function sqlText(value: unknown): string {
	if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
		return String(value);
	}
	throw new TypeError(`expected a text column value, got ${Object.prototype.toString.call(value)}`);
}

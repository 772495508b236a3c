/**
 * The session database's `meta` table: small facts kept as one key/value row each. Every read and write of
 * the table goes through here; the capabilities that own a key keep what its value means.
 *
 * A value is text (the mission, the settings, the vector space) or a JSON document written whole and read
 * back through its owner's valibot schema, where a row that does not read as one (hand-edited, from an
 * older version) reads as none. Functions ending in `Query` return an unrun statement for a batch (one round
 * trip with whatever else it carries); `Sql`, `Statement` and `Subquery` ones return plain SQL for
 * statements written by hand.
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import { meta } from './session-schema';
import type { SessionDrizzle, SessionExec, SessionWrites } from './session';

/** Keys whose value is plain text. */
export type TextKey =
	// session-setup: the pinned mission, the language and the LLM in use
	| 'mission'
	| 'language'
	| 'llm.provider'
	| 'llm.model'
	// session-setup: who plays at the table and whose turn it is (play together), for the GM
	| 'table'
	// search: the model and size of the stored vectors
	| 'embedding.model'
	| 'embedding.dimensions';

/** Keys whose value is a JSON document. */
export type JsonKey =
	// turn: the model a switch hands over to once its hand-off commits
	| 'llm.next'
	// worlds: the preset the session started from, and the copy of it
	| 'preset_origin'
	| 'preset_copy'
	// canon: the secrets' markers and what the world does not have, checked in the GM's words
	| 'canon'
	// stage: the opening, the title card, the latest choices
	| 'stage.opening'
	| 'stage.titleCard'
	| 'stage.choices'
	// stage: the preset's sound the session copied (music tracks the GM cues, loops, effects)
	| 'sounds';

/** Every key the table holds: one a module does not list here is a type error. */
export type MetaKey = TextKey | JsonKey;

type Inserts = Pick<SessionDrizzle, 'insert'>;

/** `key`'s value, unrun: for a read batch (`textOf` or `jsonOf` reads the answer). */
export function valueQuery(exec: Pick<SessionExec, 'select'>, key: MetaKey) {
	return exec.select({ value: meta.value }).from(meta).where(eq(meta.key, key));
}

/** The rows of several keys (those that exist), unrun: for a read batch. */
export function valuesQuery(exec: Pick<SessionExec, 'select'>, keys: readonly MetaKey[]) {
	return exec
		.select({ key: meta.key, value: meta.value })
		.from(meta)
		.where(inArray(meta.key, [...keys]));
}

/** `valuesQuery` as a plain statement, for a batch of statements written by hand. */
export function valuesStatement(keys: readonly MetaKey[]): { sql: string; args: string[] } {
	return { sql: `SELECT key, value FROM meta WHERE key IN (${keys.map(() => '?').join(', ')})`, args: [...keys] };
}

/** `key`'s value as a scalar subquery in plain SQL (NULL when the row is missing), for a condition written by hand. */
export function valueSubquery(key: MetaKey): { sql: string; args: string[] } {
	return { sql: '(SELECT value FROM meta WHERE key = ?)', args: [key] };
}

/** Whether `key` has a row, as an SQL expression. */
export function hasKeySql(key: MetaKey): SQL {
	return sql`EXISTS (SELECT 1 FROM ${meta} WHERE ${meta.key} = ${key})`;
}

/** The text of `valueQuery`'s answer, or undefined when there is no row. */
export function textOf([row]: readonly { value: string }[]): string | undefined {
	return row?.value;
}

/** The document of `valueQuery`'s answer read with `schema`, or null (no row, or one that does not read as one). */
export function jsonOf<S extends v.GenericSchema>([row]: readonly { value: string }[], schema: S): v.InferOutput<S> | null {
	if (!row) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(row.value);
	} catch {
		return null;
	}
	const parsed = v.safeParse(schema, raw);
	return parsed.success ? parsed.output : null;
}

/** The text stored under `key` (a document as it was written), or undefined. */
export async function readText(exec: SessionExec, key: MetaKey): Promise<string | undefined> {
	return textOf(await valueQuery(exec, key));
}

export async function readJson<S extends v.GenericSchema>(exec: SessionExec, key: JsonKey, schema: S): Promise<v.InferOutput<S> | null> {
	return jsonOf(await valueQuery(exec, key), schema);
}

function upsert(exec: Inserts, key: MetaKey, value: string) {
	return exec.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
}

/** Sets `key` to `value` (an upsert), unrun: awaited on a transaction it runs there, or it joins a batch. */
export function putQuery(exec: Inserts, key: TextKey, value: string) {
	return upsert(exec, key, value);
}

/** Sets `key` to the document `data` (an upsert), unrun. */
export function putJsonQuery(exec: Inserts, key: JsonKey, data: unknown) {
	return upsert(exec, key, JSON.stringify(data));
}

/** Writes `key` unless it has a row already (which keeps its value), unrun. */
export function putIfAbsentQuery(exec: Inserts, key: TextKey, value: string) {
	return exec.insert(meta).values({ key, value }).onConflictDoNothing();
}

/** Inserts documents as new rows, in one statement, unrun: a key that has a row already fails it (and its batch). */
export function insertJsonQuery(exec: Inserts, rows: readonly { key: JsonKey; data: unknown }[]) {
	return exec.insert(meta).values(rows.map((r) => ({ key: r.key, value: JSON.stringify(r.data) })));
}

/**
 * Inserts `key` as a new row, as a write batch statement that fails (and fails its batch whole) when the key
 * has a row already or `refuseIf` holds: the value is then NULL, which the column refuses.
 */
export function insertOrFailQuery(w: Pick<SessionWrites, 'run'>, key: TextKey, value: string, refuseIf: SQL) {
	return w.run(
		sql`INSERT INTO ${meta} (${sql.identifier(meta.key.name)}, ${sql.identifier(meta.value.name)})
			SELECT ${key}, CASE WHEN ${refuseIf} THEN NULL ELSE ${value} END`
	);
}

/** Deletes `key`'s row, unrun. */
export function deleteQuery(exec: Pick<SessionExec, 'delete'>, key: MetaKey) {
	return exec.delete(meta).where(eq(meta.key, key));
}

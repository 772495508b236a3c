/**
 * The stage's records kept as one JSON meta row each (the opening, the title card, the latest
 * choices): written whole, read back through their schema. A row that does not read as one
 * (hand-edited, from an older version) reads as none.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { sessionSchema, type SessionExec } from '../db';

const { meta } = sessionSchema;

/** The upsert of `key`'s row, unrun: for a write batch. */
export function putQuery(exec: Pick<SessionExec, 'insert'>, key: string, data: unknown) {
	const value = JSON.stringify(data);
	return exec.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
}

/** `key`'s row, unrun: for a read batch (`parseRow` reads the answer). */
export function rowQuery(exec: SessionExec, key: string) {
	return exec.select({ value: meta.value }).from(meta).where(eq(meta.key, key));
}

/** The row of `rowQuery`'s answer read with `schema`, or null. */
export function parseRow<S extends v.GenericSchema>([row]: readonly { value: string }[], schema: S): v.InferOutput<S> | null {
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

export async function read<S extends v.GenericSchema>(exec: SessionExec, key: string, schema: S): Promise<v.InferOutput<S> | null> {
	return parseRow(await rowQuery(exec, key), schema);
}

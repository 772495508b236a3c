/**
 * Who knows a record (issue 27): the characters who witnessed a journal entry, a note, a truth or a
 * play-log line, or were told it. Names are kept folded as the stage folds them (`characterKey`), so
 * "Ana", "ＡＮＡ" and " ana " are one witness. Records with no witness row are known to nobody in
 * particular: `recall` with `known_by` leaves them out.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { sessionSchema, type SessionDrizzle, type SessionExec, type SessionTx } from '../db';
import { characterKey } from '../../adv';

const { witnesses } = sessionSchema;

export const WITNESS_KINDS = ['journal', 'memory', 'story', 'log'] as const;
export type WitnessKind = (typeof WITNESS_KINDS)[number];

/** The names as stored: folded, without blanks or repeats. */
export function witnessKeys(names: readonly string[]): string[] {
	return [...new Set(names.map(characterKey).filter((n) => n !== ''))];
}

/** The witness rows of a new record, unrun (none for no names): for a batch or a planned write. */
export function addQueries(db: Pick<SessionDrizzle, 'insert'>, kind: WitnessKind, recordId: number, names: readonly string[]) {
	const keys = witnessKeys(names);
	return keys.length === 0 ? [] : [db.insert(witnesses).values(keys.map((name) => ({ kind, recordId, name })))];
}

/** Sets who knows a record, replacing whoever was named before. */
export async function set(tx: SessionTx, kind: WitnessKind, recordId: number, names: readonly string[]): Promise<void> {
	await tx.delete(witnesses).where(and(eq(witnesses.kind, kind), eq(witnesses.recordId, recordId)));
	for (const query of addQueries(tx, kind, recordId, names)) await query;
}

function isWitnessKind(kind: string): kind is WitnessKind {
	return WITNESS_KINDS.some((k) => k === kind);
}

/** Of these records, those `name` witnessed or was told, as `kind:recordId` keys. */
export async function knownTo(
	exec: SessionExec,
	name: string,
	records: readonly { kind: string; recordId: number }[]
): Promise<Set<string>> {
	const known = new Set<string>();
	const keyed = records.filter((r) => isWitnessKind(r.kind));
	if (keyed.length === 0) return known;
	const rows = await exec
		.select({ kind: witnesses.kind, recordId: witnesses.recordId })
		.from(witnesses)
		.where(and(eq(witnesses.name, characterKey(name)), inArray(witnesses.recordId, [...new Set(keyed.map((r) => r.recordId))])));
	for (const row of rows) known.add(`${row.kind}:${row.recordId}`);
	return known;
}

/** Who knows a record, as stored (folded names). */
export async function of(exec: SessionExec, kind: WitnessKind, recordId: number): Promise<string[]> {
	const rows = await exec
		.select({ name: witnesses.name })
		.from(witnesses)
		.where(and(eq(witnesses.kind, kind), eq(witnesses.recordId, recordId)));
	return rows.map((r) => r.name);
}

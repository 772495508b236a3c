/**
 * Writes the search sections of one record. Called by every record write inside the same
 * transaction, so the record and its index never disagree; the triggers on `sections` keep both FTS
 * tables and the embedding queue in step.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionTx } from '../db';
import type { RecordKind } from './kinds';

const { sections } = sessionSchema;

export interface SectionText {
	readonly path: string;
	readonly body: string;
}

export interface SectionOwner {
	readonly kind: RecordKind;
	readonly recordId: number;
	readonly gmOnly: boolean;
	readonly ref: string | null;
}

/** Rows per INSERT: keeps a long document well under SQLite's bound-parameter limit. */
const INSERT_BATCH = 100;

/** What the embedder compares against its stored vector; a NUL separates path and body so the two can't run together. */
export function sectionHash(path: string, body: string): string {
	return createHash('sha256').update(path).update('\u0000').update(body).digest('hex');
}

/**
 * Makes the sections of `owner` exactly `texts`, in order. Sections whose path and body are
 * unchanged keep their row (and so their vector) and are not queued again; changed ones reuse a row
 * that is no longer needed or are inserted; leftovers are deleted.
 */
export async function replaceSections(tx: SessionTx, owner: SectionOwner, texts: readonly SectionText[]): Promise<void> {
	const existing = await tx
		.select({ id: sections.id, ord: sections.ord, contentHash: sections.contentHash, gmOnly: sections.gmOnly, ref: sections.ref })
		.from(sections)
		.where(and(eq(sections.kind, owner.kind), eq(sections.recordId, owner.recordId)))
		.orderBy(sections.ord);

	const byHash = new Map<string, (typeof existing)[number][]>();
	for (const row of existing) byHash.set(row.contentHash, [...(byHash.get(row.contentHash) ?? []), row]);

	const wanted = texts.map((t, ord) => ({ ...t, ord, contentHash: sectionHash(t.path, t.body) }));
	const unmatched: typeof wanted = [];
	const used = new Set<number>();
	for (const w of wanted) {
		const row = byHash.get(w.contentHash)?.shift();
		if (!row) {
			unmatched.push(w);
			continue;
		}
		used.add(row.id);
		if (row.ord !== w.ord || row.gmOnly !== owner.gmOnly || row.ref !== owner.ref) {
			await tx.update(sections).set({ ord: w.ord, gmOnly: owner.gmOnly, ref: owner.ref }).where(eq(sections.id, row.id));
		}
	}

	const spare = existing.filter((row) => !used.has(row.id));
	const inserts: (typeof sections.$inferInsert)[] = [];
	for (const w of unmatched) {
		const values = {
			kind: owner.kind,
			recordId: owner.recordId,
			gmOnly: owner.gmOnly,
			ref: owner.ref,
			ord: w.ord,
			path: w.path,
			body: w.body,
			contentHash: w.contentHash
		};
		const row = spare.shift();
		if (row) await tx.update(sections).set(values).where(eq(sections.id, row.id));
		else inserts.push(values);
	}
	for (let i = 0; i < inserts.length; i += INSERT_BATCH) await tx.insert(sections).values(inserts.slice(i, i + INSERT_BATCH));
	if (spare.length > 0)
		await tx.delete(sections).where(
			inArray(
				sections.id,
				spare.map((r) => r.id)
			)
		);
}

/** The sections of a record written just now, which has none yet: no lookup needed. */
export async function addSections(tx: SessionTx, owner: SectionOwner, texts: readonly SectionText[]): Promise<void> {
	for (const query of addSectionsQueries(tx, owner, texts)) await query;
}

/** `addSections`'s inserts, unrun: for a batch (built with `SessionDb.writes`) or a transaction. */
export function addSectionsQueries(db: Pick<SessionDrizzle, 'insert'>, owner: SectionOwner, texts: readonly SectionText[]) {
	const rows = texts.map((t, ord) => ({ ...owner, ord, path: t.path, body: t.body, contentHash: sectionHash(t.path, t.body) }));
	const queries = [];
	for (let i = 0; i < rows.length; i += INSERT_BATCH) queries.push(db.insert(sections).values(rows.slice(i, i + INSERT_BATCH)));
	return queries;
}

export async function deleteSections(tx: SessionTx, kind: RecordKind, recordId: number): Promise<void> {
	await tx.delete(sections).where(and(eq(sections.kind, kind), eq(sections.recordId, recordId)));
}

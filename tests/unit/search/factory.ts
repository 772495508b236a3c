/** Test-data factory for search: sections written straight into the table, as records would. */
import { createHash } from 'node:crypto';
import { sessionSchema, type SessionExec } from '../../../src/lib/server/db';
import type { SectionKind } from '../../../src/lib/server/search';

export interface SectionInput {
	path: string;
	body: string;
	kind?: SectionKind;
	recordId?: number;
	ord?: number;
	gmOnly?: boolean;
	ref?: string | null;
}

let nextRecordId = 1;

export function contentHash(path: string, body: string): string {
	return createHash('sha256').update(`${path}\n${body}`).digest('hex');
}

/** Inserts sections (triggers fill the FTS indexes and the embedding queue); returns their ids. */
export async function insertSections(exec: SessionExec, inputs: readonly SectionInput[]): Promise<number[]> {
	const ids: number[] = [];
	for (const s of inputs) {
		const [row] = await exec
			.insert(sessionSchema.sections)
			.values({
				kind: s.kind ?? 'document',
				recordId: s.recordId ?? nextRecordId++,
				ord: s.ord ?? 0,
				path: s.path,
				body: s.body,
				gmOnly: s.gmOnly ?? false,
				ref: s.ref ?? null,
				contentHash: contentHash(s.path, s.body)
			})
			.returning({ id: sessionSchema.sections.id });
		if (!row) throw new Error('insert returned no row');
		ids.push(row.id);
	}
	return ids;
}

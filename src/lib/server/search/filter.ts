import { sql, type SQL } from 'drizzle-orm';
import { sessionSchema } from '../db';

/** The record kinds a section can belong to, as declared by the session schema. */
export type SectionKind = (typeof sessionSchema.sections.kind.enumValues)[number];
export const SECTION_KINDS: readonly SectionKind[] = sessionSchema.sections.kind.enumValues;

export interface SectionFilter {
	includeGmOnly: boolean;
	/** Undefined means every kind. */
	kinds?: readonly SectionKind[];
}

/** ` AND …` conditions on the `sections` table aliased `s`. */
export function filterSql(filter: SectionFilter): SQL {
	const parts: SQL[] = [];
	if (!filter.includeGmOnly) parts.push(sql` AND s.gm_only = 0`);
	if (filter.kinds) parts.push(sql` AND s.kind IN (${sql.join([...filter.kinds], sql`, `)})`);
	return sql.join(parts, sql``);
}

/**
 * Lore sections: a document section whose first line lists the words that call it up (a lorebook
 * entry's keys), so recall finds the section by any of them (the line is part of the section's
 * indexed body), and the author can read and change them as text:
 *
 *     ## Shadowfangs
 *     Keys: shadowfang, beast, monster
 *
 * `Keys (always):` marks a section the GM always has in mind (a lorebook's constant entry): the
 * records head carries it in every turn's context. Japanese writes `キー：` and `キー（常時）：`.
 */
import { and, asc, eq, inArray, like, or, sql } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionExec } from '../db';
import type { Language } from '../../types/settings';

const { sections } = sessionSchema;

const KEYS_LINE = /^[ \t]*(Keys|キー)[ \t\u3000]*(\(always\)|（常時）)?[ \t\u3000]*[:：][ \t\u3000]*(.*?)[ \t\u3000]*$/i;
const WORDS: Record<Language, { keys: string; always: string; colon: string; comma: string }> = {
	en: { keys: 'Keys', always: ' (always)', colon: ': ', comma: ', ' },
	ja: { keys: 'キー', always: '（常時）', colon: '：', comma: '、' }
};
/** The prefixes an always-on section's body starts with, for the query below. */
const ALWAYS_PREFIXES = ['Keys (always)%', 'キー（常時）%'];
/** Always-on text carried into a context: several short entries fit; a world pasted whole does not. */
export const MAX_ALWAYS_CHARS = 8_000;

export interface KeysLine {
	readonly keys: string[];
	readonly always: boolean;
}

/** The keys line's reading, or null for any other line. */
export function parseKeysLine(line: string): KeysLine | null {
	const m = KEYS_LINE.exec(line);
	if (!m) return null;
	const keys = (m[3] ?? '')
		.split(/[,、，]/)
		.map((k) => k.trim())
		.filter((k) => k !== '');
	return { keys, always: m[2] !== undefined };
}

/** The keys line for `keys` (commas inside a key would split it: they become spaces). */
export function formatKeysLine(keys: readonly string[], always: boolean, language: Language): string {
	const w = WORDS[language];
	const list = keys.map((k) => k.replace(/[,、，\r\n]+/g, ' ').trim()).filter((k) => k !== '');
	return `${w.keys}${always ? w.always : ''}${w.colon}${list.join(w.comma)}`.trimEnd();
}

/** Document sections marked always-on, every window of each, in document order, unrun: for a batch. */
export function alwaysSectionsQuery(exec: SessionExec) {
	const marked = exec
		.select({ key: sql<string>`${sections.recordId} || ' ' || ${sections.path}` })
		.from(sections)
		.where(and(eq(sections.kind, 'document'), or(...ALWAYS_PREFIXES.map((p) => like(sections.body, p)))));
	return exec
		.select({ path: sections.path, body: sections.body })
		.from(sections)
		.where(and(eq(sections.kind, 'document'), inArray(sql`${sections.recordId} || ' ' || ${sections.path}`, marked)))
		.orderBy(asc(sections.recordId), asc(sections.ord));
}

/** The always-on sections as one text for the records head (cut at MAX_ALWAYS_CHARS, saying so). */
export function alwaysText(rows: readonly { path: string; body: string }[]): string {
	const parts: string[] = [];
	let last = '';
	for (const row of rows) {
		const body = row.path === last ? row.body : row.body.split('\n').slice(1).join('\n').trim();
		parts.push(row.path === last ? body : `### ${row.path}\n${body}`);
		last = row.path;
	}
	const text = parts.join('\n\n');
	return text.length > MAX_ALWAYS_CHARS ? `${text.slice(0, MAX_ALWAYS_CHARS)}\n(… cut here: read the rest with read_document)` : text;
}

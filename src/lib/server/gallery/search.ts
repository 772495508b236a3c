/**
 * Gallery search over titles and taglines. Each word of the query must match (AND) as a substring,
 * in any script: words of three or more characters through the FTS5 trigram index, shorter ones
 * (two-character Japanese words such as 魔法, a single kanji) with instr() over the same text, which
 * the trigram index can't answer. Quotes in the query are plain characters, never FTS syntax.
 */
import { sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema } from '../db';
import { hasControlCharacter, said } from '../validation';

const { presets } = controlSchema;

const MAX_QUERY_CHARS = 100;
/** More words than this are ignored: each one is a condition of the query. */
const MAX_QUERY_WORDS = 8;
/** The trigram tokenizer indexes three-character windows: shorter words can't use it. */
const TRIGRAM = 3;

/** Messages follow the parse's language (the gallery page passes the reader's); the API's are English. */
export const SearchQuerySchema = v.pipe(
	v.string(said('gallery.error.search')),
	v.check((text: string) => !hasControlCharacter(text), said('gallery.error.searchControl')),
	v.trim(),
	v.maxLength(MAX_QUERY_CHARS, said('gallery.error.searchLong', { max: MAX_QUERY_CHARS }))
);

function searchWords(q: string): string[] {
	const words = q
		.toLowerCase()
		.split(/[\s\u3000]+/)
		.filter((w) => w !== '');
	return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/** An FTS5 string literal: the word exactly, whatever characters it holds. */
function ftsLiteral(word: string): string {
	return `"${word.replaceAll('"', '""')}"`;
}

/** The condition on `presets` that every word matches; undefined for an empty query. */
export function searchCondition(q: string): SQL | undefined {
	const words = searchWords(q);
	if (words.length === 0) return undefined;
	const long = words.filter((w) => [...w].length >= TRIGRAM);
	const short = words.filter((w) => [...w].length < TRIGRAM);
	const parts: SQL[] = [];
	if (long.length > 0)
		parts.push(sql`${presets.seq} IN (SELECT rowid FROM preset_search WHERE preset_search MATCH ${long.map(ftsLiteral).join(' AND ')})`);
	for (const w of short) parts.push(sql`instr(${presets.searchText}, ${w}) > 0`);
	return sql.join(parts, sql` AND `);
}

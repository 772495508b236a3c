/**
 * Tags as authors type them and as the gallery filters by them. An author's tag keeps its case but
 * not its accidents (full-width letters, a leading `#`, doubled spaces); the gallery's key is that,
 * lower-cased, so `Sci-Fi`, `sci-fi` and `＃ｓｃｉ－ｆｉ` find the same worlds. Browser-safe: the
 * editor and the gallery's filter use it too.
 */

/** The tag as it is kept and shown: NFKC, without a leading `#`, spaces collapsed, trimmed. */
export function normaliseTag(tag: string): string {
	return tag
		.normalize('NFKC')
		.replace(/^\s*#+/, '')
		.replace(/\s+/g, ' ')
		.trim();
}

/** What the gallery matches: the normalised tag, lower-cased. */
export function tagKey(tag: string): string {
	return normaliseTag(tag).toLowerCase();
}

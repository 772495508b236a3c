/**
 * Cutting record text into search sections. Pure functions: no database, no I/O.
 *
 * A section is the unit recall returns, so it must be small enough to be a precise answer and carry
 * its heading path (`Geography › North › North Gate`) so a hit can be read in context.
 */

/** Longest section body; longer text is split into windows. About one screen of prose, and well
 * inside every embedding model's input limit even for Japanese (≈1 token per character). */
export const MAX_SECTION_CHARS = 1200;

/** A window is only cut at a "nice" boundary past this share of its length, so windows never come out tiny. */
const MIN_BREAK_RATIO = 0.5;

export const PATH_SEPARATOR = ' › ';

export interface Chunk {
	/** The heading path, title first. */
	readonly parts: readonly string[];
	/** `parts` joined with ` › `. */
	readonly path: string;
	readonly body: string;
	/** 0 for a section's first window, 1, 2… for the windows that follow it under the same path. */
	readonly window: number;
}

function joinPath(parts: readonly string[]): string {
	return parts.join(PATH_SEPARATOR);
}

/** Text without headings (a journal entry, a log line): windows under one path. Blank text gives no chunks. */
export function chunkPlain(parts: readonly string[], body: string): Chunk[] {
	const path = joinPath(parts);
	return splitWindows(body).map((text, window) => ({ parts, path, body: text, window }));
}

// ATX headings as CommonMark has them, plus the ideographic space that Japanese keyboards type after `#`.
const HEADING = /^ {0,3}(#{1,6})(?:[ \t\u3000]+(.*?))?[ \t\u3000]*$/;
const CLOSING_HASHES = /(?:^|[ \t\u3000]+)#+$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

interface Heading {
	level: number;
	text: string;
}

/**
 * Splits a markdown document into sections by its ATX headings (`#` … `######`). `title` is the
 * document title, or the leading path parts (`['Memory', 'ミラ']`) for notes kept under a kind's root.
 * - Each section's path is the document title followed by the enclosing headings; levels may skip
 *   (`##` then `####`) and a later, shallower heading pops everything at its level or deeper.
 * - Text before the first heading belongs to the title path; it is dropped when blank, unless the
 *   document has no headings at all (so every document has at least its title section).
 * - A heading with no text under it still gives a section (empty body), so it is found by its path.
 * - `#` lines inside fenced code blocks are code, not headings.
 * - Sections longer than MAX_SECTION_CHARS become windows with the same path.
 * Setext headings (underlined with `===`/`---`) are not recognised: `---` is far more often a rule.
 */
export function chunkMarkdown(title: string | readonly string[], body: string): Chunk[] {
	const root = typeof title === 'string' ? [title] : [...title];
	const raw: { parts: string[]; lines: string[]; heading: boolean }[] = [{ parts: root, lines: [], heading: false }];
	const stack: Heading[] = [];
	let fence: { char: string; length: number } | null = null;

	for (const line of body.split(/\r?\n/)) {
		const current = raw[raw.length - 1];
		if (!current) continue;
		if (fence) {
			const close = FENCE_OPEN.exec(line);
			const marker = close?.[1];
			if (marker && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker) fence = null;
			current.lines.push(line);
			continue;
		}
		const open = FENCE_OPEN.exec(line)?.[1];
		if (open) {
			fence = { char: open[0] ?? '`', length: open.length };
			current.lines.push(line);
			continue;
		}
		const heading = parseHeading(line);
		if (!heading) {
			current.lines.push(line);
			continue;
		}
		while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= heading.level) stack.pop();
		stack.push(heading);
		raw.push({ parts: [...root, ...stack.map((h) => h.text)], lines: [], heading: true });
	}

	const hasHeadings = raw.length > 1;
	const chunks: Chunk[] = [];
	for (const section of raw) {
		const text = section.lines.join('\n').trim();
		const path = joinPath(section.parts);
		if (text === '') {
			if (section.heading || !hasHeadings) chunks.push({ parts: section.parts, path, body: '', window: 0 });
			continue;
		}
		splitWindows(text).forEach((windowText, window) => chunks.push({ parts: section.parts, path, body: windowText, window }));
	}
	return chunks;
}

function parseHeading(line: string): Heading | null {
	const m = HEADING.exec(line);
	const hashes = m?.[1];
	if (!m || !hashes) return null;
	const text = (m[2] ?? '').replace(CLOSING_HASHES, '').trim();
	// An empty heading has nothing to put in a path; keep the line as text rather than invent a name.
	if (text === '') return null;
	return { level: hashes.length, text };
}

const PARAGRAPH_BREAK = /\n[ \t\u3000]*\n/g;
// A sentence ends at Japanese or full-width stops (closing brackets stay with their sentence), or at
// ASCII stops followed by whitespace (so `3.14` and `e.g.x` are not cut).
const SENTENCE_END = /[。！？．][」』）)】"'”’]*|[.!?][)"'”’」』]*(?=\s)/g;
const LINE_BREAK = /\n/g;
const SPACE = /\s/g;

/**
 * Splits text into windows of at most `max` characters, cutting at the last paragraph break, else
 * sentence end, else line break, else space, else anywhere (never inside a surrogate pair).
 * Returns trimmed, non-empty windows; blank text gives none.
 */
export function splitWindows(text: string, max = MAX_SECTION_CHARS): string[] {
	const windows: string[] = [];
	let rest = text.trim();
	while (rest.length > max) {
		const cut = findCut(rest, max);
		const head = rest.slice(0, cut).trim();
		if (head) windows.push(head);
		rest = rest.slice(cut).trim();
	}
	if (rest) windows.push(rest);
	return windows;
}

function findCut(text: string, max: number): number {
	const min = Math.floor(max * MIN_BREAK_RATIO);
	// One character of look-ahead so an ASCII stop at the very end can see the space after it.
	const head = text.slice(0, max + 1);
	const paragraph = lastCut(head, PARAGRAPH_BREAK, min, max, 'start');
	if (paragraph !== null) return paragraph;
	for (const pattern of [SENTENCE_END, LINE_BREAK, SPACE]) {
		const cut = lastCut(head, pattern, min, max, 'end');
		if (cut !== null) return cut;
	}
	const code = text.charCodeAt(max - 1);
	const isHighSurrogate = code >= 0xd800 && code <= 0xdbff;
	return isHighSurrogate ? max - 1 : max;
}

/** The last match of `pattern` whose cut point (its start or end) lies in [min, max]. */
function lastCut(text: string, pattern: RegExp, min: number, max: number, at: 'start' | 'end'): number | null {
	let best: number | null = null;
	for (const m of text.matchAll(pattern)) {
		const cut = at === 'start' ? m.index : m.index + m[0].length;
		if (cut >= min && cut <= max) best = cut;
	}
	return best;
}

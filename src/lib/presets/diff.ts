/**
 * "What changed" between two versions of a preset's content, field by field: NPCs matched by name,
 * secrets by key, other openings by label, the documents' bodies by their Markdown sections (a
 * section is its heading and what follows it), everything else by its path. Browser-safe and pure:
 * the history page and the API both show its result.
 */

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface ContentChange {
	/** Where: `title`, `npcs[Mira].personality`, `documents.setting.body § The Vault Below`. */
	path: string;
	change: ChangeKind;
	/** The values as text, cut to EXCERPT_CHARS (absent on the side that does not exist). */
	before?: string;
	after?: string;
}

/** How much of a changed value is shown beside it: enough to recognise it, not a second copy of the preset. */
export const EXCERPT_CHARS = 280;
/** Lists whose items are matched by a field rather than by position. */
const IDENTITY: Readonly<Record<string, string>> = { npcs: 'name', secrets: 'key', alternatives: 'label' };
/** Text fields compared section by section. */
const SECTIONED = /^documents\.(premise|setting|pc)\.body$/;
const HEADING = /^ {0,3}#{1,6}[ \t\u3000]+(.+?)\s*#*\s*$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function excerpt(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** A Markdown text's sections by heading; the text before the first heading is the section ''. */
export function sectionsOf(markdown: string): Map<string, string> {
	const sections = new Map<string, string>();
	let heading = '';
	let lines: string[] = [];
	const flush = () => {
		const body = lines.join('\n').trim();
		if (heading !== '' || body !== '') sections.set(sections.has(heading) ? `${heading} (${sections.size + 1})` : heading, body);
	};
	for (const line of markdown.split(/\r?\n/)) {
		const match = HEADING.exec(line);
		if (!match) {
			lines.push(line);
			continue;
		}
		flush();
		heading = match[1] ?? '';
		lines = [];
	}
	flush();
	return sections;
}

function keyed(items: unknown[], field: string): Map<string, unknown> {
	const map = new Map<string, unknown>();
	items.forEach((item, i) => {
		const key = isObject(item) && typeof item[field] === 'string' ? item[field] : `#${i + 1}`;
		map.set(map.has(key) ? `${key} (#${i + 1})` : key, item);
	});
	return map;
}

function compareMaps(path: string, label: (key: string) => string, a: Map<string, unknown>, b: Map<string, unknown>, out: ContentChange[]) {
	for (const [key, before] of a) {
		if (!b.has(key)) out.push({ path: label(key), change: 'removed', before: excerpt(before) });
		else walk(label(key), before, b.get(key), out, path);
	}
	for (const [key, after] of b) if (!a.has(key)) out.push({ path: label(key), change: 'added', after: excerpt(after) });
}

function walk(path: string, a: unknown, b: unknown, out: ContentChange[], listPath = path): void {
	if (same(a, b)) return;
	if (a === undefined) {
		out.push({ path, change: 'added', after: excerpt(b) });
		return;
	}
	if (b === undefined) {
		out.push({ path, change: 'removed', before: excerpt(a) });
		return;
	}
	if (typeof a === 'string' && typeof b === 'string' && SECTIONED.test(path)) {
		compareMaps(path, (heading) => (heading === '' ? path : `${path} § ${heading}`), sectionsOf(a), sectionsOf(b), out);
		return;
	}
	const field = IDENTITY[listPath.split('.').pop() ?? ''];
	if (Array.isArray(a) && Array.isArray(b) && field !== undefined) {
		compareMaps(path, (key) => `${path}[${key}]`, keyed(a, field), keyed(b, field), out);
		return;
	}
	if (isObject(a) && isObject(b)) {
		for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(path === '' ? key : `${path}.${key}`, a[key], b[key], out);
		return;
	}
	out.push({ path, change: 'changed', before: excerpt(a), after: excerpt(b) });
}

/** The changes from `before` to `after` (two presets' stored content), in the order of their fields. */
export function diffContent(before: Json | Record<string, unknown>, after: Json | Record<string, unknown>): ContentChange[] {
	const out: ContentChange[] = [];
	walk('', before, after, out);
	return out;
}

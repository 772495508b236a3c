/**
 * Lorebook entries as world-setting sections, and back. An entry becomes a `##` section named after
 * it (its name or comment, else its keys), whose first line lists its keys (records/lore.ts: recall
 * finds the section by any of them; `(always)` marks a constant entry, which the GM then has in
 * every context), then its text. Entries keep the file's order. Decorator lines (`@@depth 4`) have
 * no meaning here and are dropped; lines of the text that would read as headings are escaped so the
 * section stays one section.
 */
import { formatKeysLine, MAX_NAME_CHARS, parseKeysLine } from '../../records';
import type { JsonObject } from '../../records';
import type { Language } from '../../../types/settings';
import type { LoreEntry } from './spec';

export interface LoreSection {
	readonly entry: LoreEntry;
	readonly title: string;
	readonly text: string;
	/** Decorator lines taken out of the text. */
	readonly decorators: number;
}

const DECORATOR = /^@@@?[A-Za-z_]+(?:[ \t].*)?$/;
const HEADING_LIKE = /^(\s{0,3})(#{1,6}(?:[ \t\u3000]|$))/gm;
const ESCAPED_HEADING = /^(\s{0,3})\\(#{1,6}(?:[ \t\u3000]|$))/gm;

function oneLine(value: string, max: number): string {
	const flat = value.replace(/\s+/g, ' ').trim();
	return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}

/** Enabled entries with text, as sections with unique titles; `resolve` turns the text's macros. */
export function loreSections(
	entries: readonly LoreEntry[],
	resolve: (text: string) => string,
	fallback: (n: number) => string
): LoreSection[] {
	const used = new Set<string>();
	const sections: LoreSection[] = [];
	entries.forEach((entry, i) => {
		if (!entry.enabled || entry.content.trim() === '') return;
		const lines = resolve(entry.content).split('\n');
		const kept = lines.filter((l) => !DECORATOR.test(l.trim()));
		const firstKey = entry.keys[0] ?? '';
		const base = oneLine(entry.name || firstKey.charAt(0).toUpperCase() + firstKey.slice(1) || fallback(i + 1), MAX_NAME_CHARS - 6);
		let title = base;
		for (let n = 2; used.has(title.toLowerCase()); n++) title = `${base} (${n})`;
		used.add(title.toLowerCase());
		sections.push({ entry, title, text: kept.join('\n').trim().replace(HEADING_LIKE, '$1\\$2'), decorators: lines.length - kept.length });
	});
	return sections;
}

export function sectionMarkdown(
	section: Pick<LoreSection, 'title' | 'text'> & { keys: readonly string[]; always: boolean },
	language: Language
): string {
	const keys = section.keys.length > 0 || section.always ? `${formatKeysLine(section.keys, section.always, language)}\n\n` : '';
	return `## ${section.title}\n${keys}${section.text}`;
}

/** A section of the setting read back as an entry. */
export interface SettingEntry {
	readonly title: string;
	readonly keys: string[];
	readonly always: boolean;
	readonly text: string;
}

const TOP_HEADING = /^ {0,3}(#{1,6})[ \t\u3000]+(.+?)[ \t\u3000]*#*[ \t\u3000]*$/;

/** The setting's sections at its outermost heading level, each with its keys line read (text before the first heading is left out). */
export function settingEntries(markdown: string): SettingEntry[] {
	const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
	const levels = lines.map((l) => TOP_HEADING.exec(l)?.[1]?.length ?? 0).filter((n) => n > 0);
	if (levels.length === 0) return [];
	const top = Math.min(...levels);
	const found: { title: string; lines: string[] }[] = [];
	for (const line of lines) {
		const m = TOP_HEADING.exec(line);
		if (m?.[1]?.length === top && m[2]) found.push({ title: m[2], lines: [] });
		else found[found.length - 1]?.lines.push(line);
	}
	return found.map(({ title, lines: body }) => {
		const firstAt = body.findIndex((l) => l.trim() !== '');
		const keysLine = firstAt >= 0 ? parseKeysLine(body[firstAt] ?? '') : null;
		const rest = keysLine ? body.slice(firstAt + 1) : body;
		return {
			title,
			keys: keysLine?.keys ?? [],
			always: keysLine?.always ?? false,
			text: rest.join('\n').trim().replace(ESCAPED_HEADING, '$1$2')
		};
	});
}

/** A setting as a card's `character_book`, each entry with the fields it was imported with (by title). */
export function settingToBook(markdown: string, kept: Readonly<Record<string, JsonObject>>, name: string): JsonObject | undefined {
	const entries = settingEntries(markdown);
	if (entries.length === 0) return undefined;
	return {
		...(name ? { name } : {}),
		extensions: {},
		entries: entries.map((e, i) => ({
			...(kept[e.title] ?? { name: e.title }),
			keys: e.keys.length > 0 ? e.keys : [e.title],
			content: e.text,
			enabled: true,
			insertion_order: (i + 1) * 10,
			constant: e.always,
			use_regex: false,
			extensions: (kept[e.title]?.extensions as JsonObject | undefined) ?? {}
		}))
	};
}

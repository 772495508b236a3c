/**
 * The editor's text forms of the authoring fields (worlds/authoring.ts): other openings as one text
 * (`## Label` then the narration, per opening), tags on one line separated by commas, sources one
 * per line, what a card import kept as JSON text. Browser-safe, pure. Each pair reads back what it
 * wrote, so a preset opened in the editor and saved unchanged stays equal.
 */

export interface OpeningChoice {
	label: string;
	narration: string;
}

const CHOICE_HEADING = /^[ \t]{0,3}##[ \t\u3000]+(.+?)[ \t\u3000]*$/;

/** `## Label` lines start an opening; text before the first heading has no label and is dropped. */
export function parseOpenings(text: string): OpeningChoice[] {
	const choices: { label: string; lines: string[] }[] = [];
	for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
		const heading = CHOICE_HEADING.exec(line);
		if (heading?.[1]) choices.push({ label: heading[1], lines: [] });
		else choices[choices.length - 1]?.lines.push(line);
	}
	return choices.map((c) => ({ label: c.label.trim(), narration: c.lines.join('\n').trim() }));
}

export function formatOpenings(choices: readonly OpeningChoice[]): string {
	return choices.map((c) => `## ${c.label}\n\n${c.narration}`).join('\n\n');
}

/** Tags typed on one line: split at commas (either width), trimmed, blanks dropped. */
export function parseTags(text: string): string[] {
	return text
		.split(/[,、，]/)
		.map((t) => t.trim())
		.filter((t) => t !== '');
}

export function formatTags(tags: readonly string[]): string {
	return tags.join(', ');
}

export function formatLines(lines: readonly string[]): string {
	return lines.join('\n');
}

export function parseLines(text: string): string[] {
	return text
		.split(/\r?\n/)
		.map((l) => l.trim())
		.filter((l) => l !== '');
}

/** The kept card JSON: `undefined` when blank, the text itself when it is not JSON (the schema then says so). */
export function parseKept(text: string): unknown {
	if (text.trim() === '') return undefined;
	try {
		const value: unknown = JSON.parse(text);
		return value;
	} catch {
		return text;
	}
}

export function formatKept(kept: unknown): string {
	return kept === undefined ? '' : JSON.stringify(kept);
}

/**
 * A card's description, taken apart only where its parts can be told apart: a look (what the
 * sprite prompt and the player may see) is proposed only from a part labelled as one ("Appearance:",
 * "Looks:", "外見：", W++'s `[Name's body= "…", "…"]`, a `## Appearance` section), and then moved, not
 * copied: the rest stays the GM-only personality. A "Scenario:" inside the description (the W++
 * habit of `[Genre: …; Scenario: …]`) is offered as the premise when the card's own scenario is empty.
 * Nothing is guessed from unlabelled prose.
 */

/** Labels of a look, in English and Japanese. */
const LOOK_WORDS = String.raw`appearance|looks?|body|physical(?:\s+(?:description|appearance|features))?|features|outfit|clothing|clothes|attire`;
const LOOK_LABEL = new RegExp(String.raw`^(?:(?:.{1,40}?['’]s\s+)?(?:${LOOK_WORDS})|外見|容姿|見た目|外観|服装|身体的特徴)$`, 'i');
const SCENARIO_LABEL = /^(?:scenario|setting|シナリオ|状況)$/i;
const MAX_LABEL_CHARS = 60;

export interface DescriptionParts {
	/** The labelled look, or '' when none could be told apart. */
	readonly look: string;
	/** The description without the look (and without a scenario moved to the premise). */
	readonly rest: string;
	/** A labelled scenario found inside, or ''. */
	readonly scenario: string;
}

function cleanList(value: string): string {
	// W++ lists: "pink hair" + "long hair", "a", "b" → pink hair, long hair
	return value
		.split(/"\s*[+,]\s*"|"\s*\+\s*|\s*\+\s*"/)
		.map((p) => p.replace(/^[\s"'“”]+|[\s"'“”]+$/g, '').trim())
		.filter((p) => p !== '')
		.join(', ');
}

interface Field {
	label: string;
	value: string;
}

/** `[Label= "a", "b"]` or `[Genre: x; Scenario: y]` → its fields; null when the bracket is not a field list. */
function bracketFields(inner: string): Field[] | null {
	const parts = inner.split(/;\s*/);
	const fields: Field[] = [];
	for (const part of parts) {
		const m = /^\s*([^=:：]{1,60}?)\s*[=:：]\s*([\s\S]*)$/.exec(part);
		if (!m?.[1] || m[2] === undefined) return null;
		fields.push({ label: m[1].trim(), value: m[2].trim() });
	}
	return fields;
}

/** A `Label: text` line (a label short enough to be one), or null. */
function labelledLine(line: string): Field | null {
	const m = /^\s*(?:#{1,6}\s*)?\**([^:：*\n]{1,60}?)\**\s*[:：]\s*(.*)$/.exec(line);
	if (!m?.[1] || m[1].length > MAX_LABEL_CHARS) return null;
	return { label: m[1].trim(), value: (m[2] ?? '').trim() };
}

/** A markdown heading's text, or null. */
function headingText(line: string): string | null {
	return /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1] ?? null;
}

export function splitDescription(description: string): DescriptionParts {
	const lines = description.replace(/\r\n?/g, '\n').split('\n');
	const looks: string[] = [];
	let scenario = '';
	const kept: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] ?? '';
		const bracket = /^\s*\[([\s\S]*)\]\s*$/.exec(line);
		if (bracket?.[1] !== undefined) {
			const fields = bracketFields(bracket[1]);
			if (fields) {
				const others = fields.filter((f) => {
					if (LOOK_LABEL.test(f.label)) return (looks.push(cleanList(f.value)), false);
					if (SCENARIO_LABEL.test(f.label) && scenario === '') return ((scenario = f.value), false);
					return true;
				});
				if (others.length < fields.length) {
					if (others.length > 0) kept.push(`[${others.map((f) => `${f.label}: ${f.value}`).join('; ')}]`);
					continue;
				}
			}
			kept.push(line);
			continue;
		}
		const heading = headingText(line);
		const labelled = heading === null ? labelledLine(line) : { label: heading, value: '' };
		if (labelled && LOOK_LABEL.test(labelled.label)) {
			// The look runs to the next blank line (a label with its text on the lines below runs to the next heading or label).
			const body = [labelled.value];
			while (i + 1 < lines.length) {
				const next = lines[i + 1] ?? '';
				if (next.trim() === '' && body.join('').trim() !== '') break;
				if (headingText(next) !== null || (labelledLine(next) && body.join('').trim() !== '' && !/^\s*[-*•]/.test(next))) break;
				body.push(next);
				i++;
			}
			looks.push(body.join('\n').trim());
			continue;
		}
		kept.push(line);
	}
	return {
		look: looks.filter((l) => l !== '').join('\n'),
		rest: kept
			.join('\n')
			.replace(/\n{3,}/g, '\n\n')
			.trim(),
		scenario
	};
}

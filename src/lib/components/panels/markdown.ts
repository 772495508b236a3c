/**
 * A tiny Markdown reader for the documents panel: headings, paragraphs, lists, block quotes, code,
 * rules, and inline emphasis, strong and code. It produces a tree, never HTML: `Markdown.svelte`
 * renders the tree with ordinary text nodes, so whatever a document contains (`<script>`, event
 * attributes, `javascript:` links) is shown as the characters it is and can never become markup.
 * Links and images are shown as their text, since a document is read inside the game, not browsed.
 * Linear in the input: every scan moves forward.
 */

export type Inline =
	| { readonly type: 'text'; readonly text: string }
	| { readonly type: 'em'; readonly children: readonly Inline[] }
	| { readonly type: 'strong'; readonly children: readonly Inline[] }
	| { readonly type: 'code'; readonly text: string };

export type Block =
	| { readonly type: 'heading'; readonly level: 1 | 2 | 3 | 4 | 5 | 6; readonly children: readonly Inline[] }
	| { readonly type: 'paragraph'; readonly children: readonly Inline[] }
	| { readonly type: 'list'; readonly ordered: boolean; readonly items: readonly (readonly Inline[])[] }
	| { readonly type: 'quote'; readonly children: readonly Inline[] }
	| { readonly type: 'code'; readonly text: string }
	| { readonly type: 'rule' };

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const EMPTY_HEADING = /^ {0,3}(#{1,6})[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;
const NUMBERED = /^[ \t]*\d{1,9}[.)][ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const FENCE = /^ {0,3}(```|~~~)/;
const BLANK = /^[ \t\u3000]*$/;
/** Deeper nesting than this is shown flat: the panel is narrow, and it bounds the recursion. */
const MAX_INLINE_DEPTH = 8;

function headingLevel(hashes: string): 1 | 2 | 3 | 4 | 5 | 6 {
	switch (hashes.length) {
		case 1:
			return 1;
		case 2:
			return 2;
		case 3:
			return 3;
		case 4:
			return 4;
		case 5:
			return 5;
		default:
			return 6;
	}
}

export function parseMarkdown(source: string): Block[] {
	const lines = source.replace(/\r\n?/g, '\n').split('\n');
	const blocks: Block[] = [];
	let i = 0;
	while (i < lines.length) {
		const line = lines[i] ?? '';
		if (BLANK.test(line)) {
			i++;
			continue;
		}
		const fence = FENCE.exec(line);
		if (fence) {
			const marker = fence[1] ?? '```';
			const body: string[] = [];
			i++;
			while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker)) body.push(lines[i++] ?? '');
			i++; // the closing fence (or the end)
			blocks.push({ type: 'code', text: body.join('\n') });
			continue;
		}
		const heading = HEADING.exec(line) ?? EMPTY_HEADING.exec(line);
		if (heading) {
			blocks.push({ type: 'heading', level: headingLevel(heading[1] ?? '#'), children: parseInline(heading[2] ?? '') });
			i++;
			continue;
		}
		if (RULE.test(line)) {
			blocks.push({ type: 'rule' });
			i++;
			continue;
		}
		if (QUOTE.test(line)) {
			const body: string[] = [];
			while (i < lines.length) {
				const m = QUOTE.exec(lines[i] ?? '');
				if (!m) break;
				body.push(m[1] ?? '');
				i++;
			}
			blocks.push({ type: 'quote', children: parseInline(body.join('\n')) });
			continue;
		}
		const ordered = NUMBERED.test(line);
		if (ordered || BULLET.test(line)) {
			const pattern = ordered ? NUMBERED : BULLET;
			const items: string[] = [];
			while (i < lines.length) {
				const current = lines[i] ?? '';
				const m = pattern.exec(current);
				if (m) {
					items.push(m[1] ?? '');
				} else if (!BLANK.test(current) && /^[ \t]+\S/.test(current) && items.length > 0) {
					// An indented line continues the item above.
					const last = items.length - 1;
					items[last] = `${items[last] ?? ''}\n${current.trim()}`;
				} else {
					break;
				}
				i++;
			}
			blocks.push({ type: 'list', ordered, items: items.map((item) => parseInline(item)) });
			continue;
		}
		const body: string[] = [];
		while (i < lines.length) {
			const current = lines[i] ?? '';
			if (
				BLANK.test(current) ||
				HEADING.test(current) ||
				FENCE.test(current) ||
				QUOTE.test(current) ||
				RULE.test(current) ||
				BULLET.test(current) ||
				NUMBERED.test(current)
			)
				break;
			body.push(current.trim());
			i++;
		}
		blocks.push({ type: 'paragraph', children: parseInline(body.join('\n')) });
	}
	return blocks;
}

/** Inline spans: `code`, **strong** / __strong__, *em* / _em_, [text](url) as its text, \-escapes. */
export function parseInline(text: string, depth = 0): Inline[] {
	const out: Inline[] = [];
	let buffer = '';
	const flush = () => {
		if (buffer !== '') out.push({ type: 'text', text: buffer });
		buffer = '';
	};
	// Once a search for a closer fails, no later opener of the same kind can succeed: remembering that
	// keeps a run of unmatched `*`, `[` or backticks linear instead of quadratic.
	let backticksLeft = true;
	let linksLeft = true;
	const failedFrom = new Map<string, number>();
	let i = 0;
	while (i < text.length) {
		const ch = text[i] ?? '';
		if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!>~]/.test(text[i + 1] ?? '')) {
			buffer += text[i + 1] ?? '';
			i += 2;
			continue;
		}
		if (ch === '`' && backticksLeft) {
			const end = text.indexOf('`', i + 1);
			if (end === -1) backticksLeft = false;
			if (end > i + 1) {
				flush();
				out.push({ type: 'code', text: text.slice(i + 1, end) });
				i = end + 1;
				continue;
			}
		}
		if ((ch === '*' || ch === '_') && depth < MAX_INLINE_DEPTH) {
			const strong = text[i + 1] === ch;
			const marker = strong ? ch + ch : ch;
			const start = i + marker.length;
			// An opener must touch its text: `* item` or `a * b` is a plain star.
			const opens = start < text.length && !/\s/.test(text[start] ?? '');
			const failed = failedFrom.get(marker);
			const end = !opens || (failed !== undefined && start >= failed) ? -1 : closing(text, marker, start);
			if (opens && end === -1 && failed === undefined) failedFrom.set(marker, start);
			if (end !== -1) {
				flush();
				const children = parseInline(text.slice(start, end), depth + 1);
				out.push(strong ? { type: 'strong', children } : { type: 'em', children });
				i = end + marker.length;
				continue;
			}
		}
		if (ch === '!' && text[i + 1] === '[') {
			i++;
			continue;
		}
		if (ch === '[' && linksLeft) {
			const close = text.indexOf('](', i + 1);
			const end = close === -1 ? -1 : linkEnd(text, close + 2);
			if (end === -1) linksLeft = false;
			if (close !== -1 && end !== -1 && !text.slice(i + 1, close).includes('\n')) {
				// The link's text only: no navigation from inside a game document.
				buffer += text.slice(i + 1, close);
				i = end + 1;
				continue;
			}
		}
		buffer += ch;
		i++;
	}
	flush();
	return out;
}

/** Where a span opened by `marker` before `start` closes: not right after the opener, and after a non-space. */
function closing(text: string, marker: string, start: number): number {
	let from = start + 1;
	for (;;) {
		const end = text.indexOf(marker, from);
		if (end === -1) return -1;
		// `**` must not close a single `*`, and a closer follows a non-space.
		const doubled = marker.length === 1 && text[end + 1] === marker;
		if (!/\s/.test(text[end - 1] ?? '') && !doubled) {
			// `***` after an inner `*`: the strong span closes on the last two stars.
			let last = end;
			if (marker.length === 2) while (text[last + 2] === marker[0]) last++;
			return last;
		}
		from = end + (doubled ? 2 : 1);
	}
}

/** The `)` closing a link target that starts at `from`, counting nested parentheses; -1 when none. */
function linkEnd(text: string, from: number): number {
	let depth = 0;
	for (let k = from; k < text.length; k++) {
		const c = text[k];
		if (c === '(') depth++;
		else if (c === ')') {
			if (depth === 0) return k;
			depth--;
		} else if (c === '\n') return -1;
	}
	return -1;
}

/** The plain text of inline spans (for titles, tests and screen-reader summaries). */
export function inlineText(children: readonly Inline[]): string {
	return children.map((c) => (c.type === 'text' || c.type === 'code' ? c.text : inlineText(c.children))).join('');
}

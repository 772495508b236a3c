/**
 * Where a page of the text window ends: the window lays out the paragraph from the page's start (the
 * revealed part and the rest, unseen), and the first character on a line that does not fit in the
 * window's text box starts the next page. Lines are found from the characters' boxes, by bisection,
 * so a long paragraph costs a handful of measures.
 */

/** Sub-pixel rounding: a line this much past the box still fits. */
const FIT_SLACK_PX = 1;

interface TextRun {
	node: Text;
	/** Offset of the node's first character in the text as a whole. */
	start: number;
}

function runsOf(root: Element): { runs: TextRun[]; length: number } {
	const runs: TextRun[] = [];
	let length = 0;
	const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
		if (!(node instanceof Text) || node.data.length === 0) continue;
		runs.push({ node, start: length });
		length += node.data.length;
	}
	return { runs, length };
}

/** The box of the character at `offset` (its last line box, should it be split). */
function charBox(runs: readonly TextRun[], range: Range, offset: number): DOMRect | null {
	let lo = 0;
	let hi = runs.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((runs[mid]?.start ?? 0) <= offset) lo = mid;
		else hi = mid - 1;
	}
	const run = runs[lo];
	if (!run) return null;
	const local = offset - run.start;
	const code = run.node.data.charCodeAt(local);
	// Never half a surrogate pair.
	const width = code >= 0xd800 && code <= 0xdbff && local + 1 < run.node.data.length ? 2 : 1;
	range.setStart(run.node, local);
	range.setEnd(run.node, Math.min(local + width, run.node.data.length));
	const rects = [...range.getClientRects()].filter((r) => r.height > 0);
	return rects.at(-1) ?? null;
}

/**
 * The offset (in UTF-16 units of `text`'s characters) of the first character that does not fit in
 * `box`, laid out from `text`'s top; null when all of it fits. A page holds at least its first line.
 */
export function pageBreak(text: Element, box: Element): number | null {
	const limit = box.getBoundingClientRect().bottom + FIT_SLACK_PX;
	if (text.getBoundingClientRect().bottom <= limit) return null;
	const { runs, length } = runsOf(text);
	if (length === 0) return null;
	const range = text.ownerDocument.createRange();
	const bottom = (offset: number) => charBox(runs, range, offset)?.bottom ?? Number.NEGATIVE_INFINITY;
	// The first character whose line ends below the box: lines only go down as the text goes on.
	let lo = 0;
	let hi = length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (bottom(mid) > limit) hi = mid;
		else lo = mid + 1;
	}
	if (lo >= length) return null;
	if (lo > 0) return lo;
	// Not even the first line fits (a tiny window): the page is that line.
	const first = charBox(runs, range, 0);
	if (!first) return null;
	lo = 1;
	hi = length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if ((charBox(runs, range, mid)?.top ?? Number.NEGATIVE_INFINITY) >= first.bottom - FIT_SLACK_PX) hi = mid;
		else lo = mid + 1;
	}
	return lo >= length ? null : lo;
}

/**
 * Windowing math for a long list of rows of different heights: only the rows on screen (plus a
 * margin) are rendered, and the rest is stood in for by one spacer of the right height.
 *
 * Heights start as estimates and become exact as rows are measured. Offsets are prefix sums kept in
 * a Fenwick tree, so measuring a row and finding the row at a scroll position both cost O(log n)
 * however long the backlog. Adding rows in front (an older page) rebuilds the tree in O(n), once per
 * page. Pure: no DOM, so it is unit-tested and the component only feeds it numbers.
 */

export interface RowRange {
	/** First row to render. */
	readonly start: number;
	/** One past the last row to render. */
	readonly end: number;
	/** Pixels above `start`: the top spacer. */
	readonly before: number;
	/** Pixels below `end - 1`: the bottom spacer. */
	readonly after: number;
}

export class HeightIndex {
	private heights: number[];
	private tree: Float64Array;

	constructor(heights: readonly number[] = []) {
		this.heights = heights.map(sanitize);
		this.tree = build(this.heights);
	}

	get length(): number {
		return this.heights.length;
	}

	/** The whole list's height. */
	get total(): number {
		return this.prefix(this.heights.length);
	}

	heightOf(i: number): number {
		return this.heights[i] ?? 0;
	}

	/** Pixels from the list's top to the top of row `i` (the total for i ≥ length). */
	offsetOf(i: number): number {
		return this.prefix(Math.max(0, Math.min(i, this.heights.length)));
	}

	/** Sets one row's height; returns the change, so a caller can keep what is on screen in place. */
	set(i: number, height: number): number {
		const current = this.heights[i];
		if (current === undefined) return 0;
		const next = sanitize(height);
		const delta = next - current;
		if (delta === 0) return 0;
		this.heights[i] = next;
		for (let k = i + 1; k <= this.heights.length; k += k & -k) this.tree[k] = (this.tree[k] ?? 0) + delta;
		return delta;
	}

	/** Adds rows at the end (live messages). */
	append(heights: readonly number[]): void {
		if (heights.length === 0) return;
		this.heights.push(...heights.map(sanitize));
		this.tree = build(this.heights);
	}

	/** Adds rows in front (an older page); every existing row's index moves by `heights.length`. */
	prepend(heights: readonly number[]): void {
		if (heights.length === 0) return;
		this.heights = [...heights.map(sanitize), ...this.heights];
		this.tree = build(this.heights);
	}

	/**
	 * The row at pixel `y` from the top: the last row whose top is at or above y. Clamped to the list,
	 * 0 for an empty one. A binary descent of the Fenwick tree.
	 */
	indexAt(y: number): number {
		const n = this.heights.length;
		if (n === 0 || y <= 0) return 0;
		let pos = 0;
		let remaining = y;
		for (let step = highestPowerOfTwo(n); step > 0; step >>= 1) {
			const next = pos + step;
			const size = this.tree[next];
			if (next <= n && size !== undefined && size <= remaining) {
				pos = next;
				remaining -= size;
			}
		}
		// pos rows lie entirely at or above y; y falls inside row pos.
		return Math.min(pos, n - 1);
	}

	/**
	 * The rows to render for a viewport: every row that intersects [scrollTop, scrollTop + viewport),
	 * widened by `overscan` rows on each side so a fast scroll does not show blank space first.
	 */
	range(scrollTop: number, viewport: number, overscan: number): RowRange {
		const n = this.heights.length;
		if (n === 0) return { start: 0, end: 0, before: 0, after: 0 };
		const top = Math.max(0, scrollTop);
		const first = this.indexAt(top);
		const last = this.indexAt(top + Math.max(0, viewport) - 1);
		const start = Math.max(0, first - overscan);
		const end = Math.min(n, last + 1 + overscan);
		const before = this.offsetOf(start);
		return { start, end, before, after: this.total - this.offsetOf(end) };
	}

	private prefix(count: number): number {
		let sum = 0;
		for (let k = count; k > 0; k -= k & -k) sum += this.tree[k] ?? 0;
		return sum;
	}
}

function sanitize(height: number): number {
	return Number.isFinite(height) && height > 0 ? height : 0;
}

function build(heights: readonly number[]): Float64Array {
	const tree = new Float64Array(heights.length + 1);
	for (let i = 0; i < heights.length; i++) {
		const k = i + 1;
		tree[k] = (tree[k] ?? 0) + (heights[i] ?? 0);
		const parent = k + (k & -k);
		if (parent <= heights.length) tree[parent] = (tree[parent] ?? 0) + (tree[k] ?? 0);
	}
	return tree;
}

function highestPowerOfTwo(n: number): number {
	let p = 1;
	while (p * 2 <= n) p *= 2;
	return p;
}

/**
 * Where to scroll so the row that was at the top stays put after the list changed above it: the
 * anchor row's new offset plus how far into it the viewport was.
 */
export function anchoredScrollTop(index: HeightIndex, anchorRow: number, intoRow: number): number {
	return index.offsetOf(anchorRow) + intoRow;
}

/** The next row for a key press in a list of `count` rows, or null when the key does not move. */
export function nextRow(key: string, current: number, count: number, pageRows: number): number | null {
	if (count === 0) return null;
	const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
	switch (key) {
		case 'ArrowDown':
			return clamp(current + 1);
		case 'ArrowUp':
			return clamp(current - 1);
		case 'PageDown':
			return clamp(current + Math.max(1, pageRows));
		case 'PageUp':
			return clamp(current - Math.max(1, pageRows));
		case 'Home':
			return 0;
		case 'End':
			return count - 1;
		default:
			return null;
	}
}

/** Windowing math of the backlog: prefix sums, the row at a scroll position, the window, anchoring and keys. */
import { describe, expect, it } from 'vitest';
import { anchoredScrollTop, HeightIndex, nextRow } from './windowing';

/** A small deterministic generator, so a failure replays. */
function rng(seed: number): () => number {
	let x = seed >>> 0 || 1;
	return () => {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		return (x >>> 0) / 2 ** 32;
	};
}

function naiveOffset(heights: number[], i: number): number {
	return heights.slice(0, i).reduce((a, b) => a + b, 0);
}

function naiveIndexAt(heights: number[], y: number): number {
	let top = 0;
	for (let i = 0; i < heights.length; i++) {
		const h = heights[i] ?? 0;
		if (y < top + h) return i;
		top += h;
	}
	return Math.max(0, heights.length - 1);
}

describe('HeightIndex', () => {
	it('agrees with naive prefix sums through random sets, appends and prepends', () => {
		const next = rng(42);
		const naive: number[] = [];
		const index = new HeightIndex();
		for (let round = 0; round < 300; round++) {
			const op = next();
			if (op < 0.2) {
				const add = Array.from({ length: 1 + Math.floor(next() * 20) }, () => 10 + Math.floor(next() * 90));
				naive.unshift(...add);
				index.prepend(add);
			} else if (op < 0.35) {
				const add = Array.from({ length: 1 + Math.floor(next() * 5) }, () => 10 + Math.floor(next() * 90));
				naive.push(...add);
				index.append(add);
			} else if (naive.length > 0) {
				const i = Math.floor(next() * naive.length);
				const h = 5 + Math.floor(next() * 200);
				const before = naive[i] ?? 0;
				expect(index.set(i, h)).toBe(h - before);
				naive[i] = h;
			}
			expect(index.length).toBe(naive.length);
			expect(index.total).toBe(naiveOffset(naive, naive.length));
			for (let probe = 0; probe < 5; probe++) {
				const i = Math.floor(next() * (naive.length + 1));
				expect(index.offsetOf(i)).toBe(naiveOffset(naive, i));
				const y = Math.floor(next() * (index.total + 50));
				expect(index.indexAt(y), `y=${y}`).toBe(naiveIndexAt(naive, y));
			}
		}
	});

	it('finds the row at exact row boundaries and clamps outside the list', () => {
		const index = new HeightIndex([10, 20, 30]);
		expect([0, 9, 10, 29, 30, 59, 60, 1000, -5].map((y) => index.indexAt(y))).toEqual([0, 0, 1, 1, 2, 2, 2, 2, 0]);
		expect(new HeightIndex().indexAt(100)).toBe(0);
	});

	it('treats non-finite or negative heights as zero and ignores rows that do not exist', () => {
		const index = new HeightIndex([Number.NaN, -4, 10]);
		expect(index.total).toBe(10);
		expect(index.set(7, 50)).toBe(0);
		expect(index.set(0, Number.POSITIVE_INFINITY)).toBe(0);
		expect(index.total).toBe(10);
	});

	it('windows only the rows that meet the viewport, plus the overscan, with spacers that add up', () => {
		const heights = Array.from({ length: 10_000 }, (_, i) => 40 + (i % 7) * 10);
		const index = new HeightIndex(heights);
		const scrollTop = index.offsetOf(5_000) + 15;
		const r = index.range(scrollTop, 600, 3);
		expect(r.start).toBe(5_000 - 3);
		// The last row intersecting the viewport, plus 3.
		const lastVisible = index.indexAt(scrollTop + 599);
		expect(r.end).toBe(lastVisible + 1 + 3);
		expect(r.end - r.start).toBeLessThan(30);
		let rendered = 0;
		for (let i = r.start; i < r.end; i++) rendered += index.heightOf(i);
		expect(r.before + rendered + r.after).toBe(index.total);
		expect(index.range(0, 0, 0)).toMatchObject({ start: 0, end: 1, before: 0 });
		expect(new HeightIndex().range(0, 500, 5)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
		// Overscrolled above the top (a rubber-band bounce): the window starts at the first row.
		expect(index.range(-300, 600, 3)).toEqual(index.range(0, 600, 3));
	});

	it('keeps the top line in place when rows are added above it', () => {
		const index = new HeightIndex([50, 50, 50, 50]);
		const scrollTop = 120; // row 2, 20 px in
		const anchor = index.indexAt(scrollTop);
		const into = scrollTop - index.offsetOf(anchor);
		index.prepend([30, 30, 30]);
		const top = anchoredScrollTop(index, anchor + 3, into);
		expect(top).toBe(90 + 120);
		expect(index.indexAt(top)).toBe(anchor + 3);
	});
});

describe('nextRow', () => {
	it('moves with arrows, pages, Home and End, clamped to the list', () => {
		expect(nextRow('ArrowDown', 3, 10, 4)).toBe(4);
		expect(nextRow('ArrowDown', 9, 10, 4)).toBe(9);
		expect(nextRow('ArrowUp', 0, 10, 4)).toBe(0);
		expect(nextRow('PageDown', 3, 10, 4)).toBe(7);
		expect(nextRow('PageUp', 3, 10, 4)).toBe(0);
		expect(nextRow('Home', 5, 10, 4)).toBe(0);
		expect(nextRow('End', 5, 10, 4)).toBe(9);
		expect(nextRow('a', 5, 10, 4)).toBeNull();
		expect(nextRow('ArrowDown', 0, 0, 4)).toBeNull();
	});

	it('moves at least one row a page, however small the viewport', () => {
		expect(nextRow('PageDown', 3, 10, 0)).toBe(4);
		expect(nextRow('PageUp', 3, 10, 0)).toBe(2);
	});
});

/**
 * The backlog's window onto its rows: the scroll position and size of the scroller, the rows' heights
 * (estimated, then measured), and which rows to render. Rows added above keep the line at the top of
 * the view in place; rows added below are followed while the view is at the bottom. It is the feed's
 * `FeedView`, and it holds the active row, whose index moves as rows arrive in front. The math is
 * `windowing.ts`; this class holds the DOM's numbers and the scroller.
 */
import { tick } from 'svelte';
import { anchoredScrollTop, HeightIndex } from './windowing';
import { estimateHeight, type BacklogEntry } from './entries';
import type { FeedView } from './feed.svelte';

/** Rows rendered beyond each edge of the viewport, so a quick scroll never shows blank space first. */
const OVERSCAN_ROWS = 6;
/** "At the bottom" allows for sub-pixel rounding of scroll positions. */
const BOTTOM_SLACK_PX = 4;

export class BacklogViewport implements FeedView {
	scroller = $state<HTMLDivElement>();
	scrollTop = $state(0);
	height = $state(0);
	atBottom = $state(true);
	/** The row the keys move (aria-activedescendant); -1 before any. */
	active = $state(-1);
	private width = $state(0);
	/** Bumped whenever heights change: the window depends on it. */
	private layout = $state(0);
	private heights = new HeightIndex();
	/* eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping nothing renders: the window reads `layout` */
	private keyIndex = new Map<string, number>();

	/** The rows to render, and the spacers' heights above and below them. */
	readonly range = $derived.by(() => {
		void this.layout;
		void this.entries();
		return this.heights.range(this.scrollTop, this.height, OVERSCAN_ROWS);
	});

	/** Measured row heights replace the estimates, keeping the top line of the view in place. */
	private readonly rowObserver =
		typeof ResizeObserver === 'undefined'
			? undefined
			: new ResizeObserver((records) => {
					const anchor = this.heights.indexAt(this.scrollTop);
					const into = this.scrollTop - this.heights.offsetOf(anchor);
					let changed = false;
					let above = false;
					for (const r of records) {
						if (!(r.target instanceof HTMLElement)) continue;
						const i = this.keyIndex.get(r.target.dataset.key ?? '');
						if (i === undefined) continue;
						const size = r.borderBoxSize[0]?.blockSize ?? r.target.offsetHeight;
						if (this.heights.set(i, size) !== 0) {
							changed = true;
							if (i < anchor) above = true;
						}
					}
					if (!changed) return;
					this.layout++;
					if (this.atBottom) void this.toBottom();
					else if (above) void this.setScroll(anchoredScrollTop(this.heights, anchor, into));
				});

	/** `entries` reads the rows in log order (the feed's). */
	constructor(private readonly entries: () => readonly BacklogEntry[]) {}

	/** Follows the scroller's size; returns the cleanup. Call once it is mounted. */
	observe(): (() => void) | undefined {
		if (!this.scroller) return;
		const el = this.scroller;
		const viewportObserver = new ResizeObserver(() => {
			this.height = el.clientHeight;
			this.width = el.clientWidth;
			if (this.atBottom) void this.toBottom();
		});
		viewportObserver.observe(el);
		this.height = el.clientHeight;
		this.width = el.clientWidth;
		return () => viewportObserver.disconnect();
	}

	/** An attachment for each row: its measured height replaces the estimate. */
	readonly measure = (node: HTMLElement) => {
		this.rowObserver?.observe(node);
		return () => this.rowObserver?.unobserve(node);
	};

	readonly onScroll = (): void => {
		if (!this.scroller) return;
		this.scrollTop = this.scroller.scrollTop;
		this.atBottom = this.isAtBottom();
	};

	/** The first page: every row is new, estimated afresh; the last one is active and in view. */
	async replaced(): Promise<void> {
		this.heights = new HeightIndex(this.estimate(this.entries()));
		this.rebuildKeys();
		this.active = this.entries().length - 1;
		this.layout++;
		await this.toBottom();
	}

	/** Rows now in front of the others: the line at the top of the view stays where it is. */
	async prepended(rows: readonly BacklogEntry[]): Promise<void> {
		const anchor = this.heights.indexAt(this.scrollTop);
		const into = this.scrollTop - this.heights.offsetOf(anchor);
		this.heights.prepend(this.estimate(rows));
		this.rebuildKeys();
		if (this.active >= 0) this.active += rows.length;
		this.layout++;
		await this.setScroll(anchoredScrollTop(this.heights, anchor + rows.length, into));
	}

	/** Rows now at the end: followed if the view was at the bottom, and the active line with them if it was the last. */
	appended(rows: readonly BacklogEntry[]): void {
		const follow = this.atBottom;
		const count = this.entries().length;
		const wasLast = this.active === count - rows.length - 1;
		this.heights.append(this.estimate(rows));
		this.rebuildKeys();
		if (wasLast || this.active < 0) this.active = count - 1;
		this.layout++;
		if (follow) void this.toBottom();
	}

	async toBottom(): Promise<void> {
		await this.setScroll(this.heights.total);
	}

	/** Scrolls just enough to show row `i` whole. */
	async reveal(i: number): Promise<void> {
		const top = this.heights.offsetOf(i);
		const bottom = top + this.heights.heightOf(i);
		if (top < this.scrollTop) await this.setScroll(top);
		else if (bottom > this.scrollTop + this.height) await this.setScroll(bottom - this.height);
	}

	private async setScroll(top: number): Promise<void> {
		await tick();
		if (!this.scroller) return;
		this.scroller.scrollTop = top;
		this.scrollTop = this.scroller.scrollTop;
		this.atBottom = this.isAtBottom();
	}

	private isAtBottom(): boolean {
		if (!this.scroller) return true;
		return this.scroller.scrollTop + this.scroller.clientHeight >= this.scroller.scrollHeight - BOTTOM_SLACK_PX;
	}

	private estimate(list: readonly BacklogEntry[]): number[] {
		return list.map((e) => estimateHeight(e, this.width));
	}

	private rebuildKeys(): void {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- as above
		this.keyIndex = new Map(this.entries().map((e, i) => [e.key, i]));
	}
}

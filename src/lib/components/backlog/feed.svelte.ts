/**
 * The backlog's paging feed: the latest page first, older pages as the reader nears the top, live
 * messages as they arrive, and `?after=` pages for the cues of live messages. It owns the data model
 * (`model.ts`) and the loading state the list shows; `Backlog.svelte` draws the rows and is told of each
 * change through a `FeedView`, so its heights, scroll position and active line follow.
 *
 * Each `loadLatest` (a session, a retry) starts a new generation: answers meant for an older one are dropped.
 */
import { fetchLogPage } from '../../play';
import { BacklogModel, type BacklogMessage, type Merge } from './model';
import type { BacklogEntry } from './entries';
import type { BacklogSelection } from './types';

/** Where the pages come from; read at each request, so it may follow the component's props. */
export interface FeedSource {
	readonly sessionId: string;
	/** Messages per request (the API allows 1–200). */
	readonly pageSize: number;
	readonly fetch: typeof fetch;
	/** Messages the page has seen arrive since it loaded (any order, repeats ignored). */
	readonly live: readonly BacklogMessage[];
}

/** How the list follows the feed. Each hook runs once `entries` holds the change. */
export interface FeedView {
	/** The first page (with any live messages) replaced every row; resolves once the list shows its end. */
	replaced(): Promise<void>;
	/** An older page's rows, now in front; resolves once the line that was at the top is back in place. */
	prepended(rows: readonly BacklogEntry[]): Promise<void>;
	/** Newer rows, now at the end. */
	appended(rows: readonly BacklogEntry[]): void;
}

export class BacklogFeed {
	/** The rows in log order; replaced, never mutated. */
	entries = $state.raw<readonly BacklogEntry[]>([]);
	phase = $state<'loading' | 'ready' | 'error'>('loading');
	loadingOlder = $state(false);
	olderError = $state(false);
	hasOlder = $state(false);
	private readonly model = new BacklogModel();
	private generation = 0;
	private catchingUp = false;

	constructor(
		private readonly source: () => FeedSource,
		private readonly view: FeedView
	) {}

	/** The latest page, replacing whatever was loaded. */
	async loadLatest(): Promise<void> {
		const mine = ++this.generation;
		this.phase = 'loading';
		try {
			const { fetch, sessionId, pageSize } = this.source();
			const page = await fetchLogPage(fetch, sessionId, { limit: pageSize });
			if (mine !== this.generation) return;
			this.model.reset(page);
			// Live messages that arrived while the first page was on its way.
			this.model.addNewer(this.source().live);
			this.hasOlder = this.model.hasOlder;
			this.entries = this.model.entries;
			await this.view.replaced();
			// Only now: at scroll position 0 (before the jump to the end) it would fetch an older page at once.
			this.phase = 'ready';
			if (this.model.needsCatchUp) void this.catchUp();
		} catch (err) {
			if (mine !== this.generation) return;
			console.warn('[kantera] backlog:', err instanceof Error ? err.message : err);
			this.phase = 'error';
		}
	}

	async loadOlder(): Promise<void> {
		if (this.loadingOlder || !this.model.hasOlder) return;
		const mine = this.generation;
		this.loadingOlder = true;
		this.olderError = false;
		try {
			const { fetch, sessionId, pageSize } = this.source();
			const page = await fetchLogPage(fetch, sessionId, { before: this.model.nextBefore, limit: pageSize });
			if (mine !== this.generation) return;
			const merge = this.model.addOlder(page);
			this.hasOlder = this.model.hasOlder;
			if (merge.prepended.length > 0) {
				this.entries = this.model.entries;
				await this.view.prepended(merge.prepended);
			}
		} catch (err) {
			if (mine !== this.generation) return;
			console.warn('[kantera] backlog:', err instanceof Error ? err.message : err);
			this.olderError = true;
		} finally {
			if (mine === this.generation) this.loadingOlder = false;
		}
	}

	retryOlder(): void {
		this.olderError = false;
		void this.loadOlder();
	}

	/** Live messages: shown at once (once the first page is in), their cues fetched after. */
	addLive(messages: readonly BacklogMessage[]): void {
		if (!this.model.loaded) return;
		this.append(this.model.addNewer(messages));
		if (this.model.needsCatchUp) void this.catchUp();
	}

	/** What the page needs of a picked row: the stage it had, and the images known. */
	selection(entry: BacklogEntry): BacklogSelection {
		return {
			messageId: entry.messageId,
			paragraph: entry.paragraph,
			stage: this.model.stageAt(entry.messageId, entry.paragraph),
			entry,
			images: this.model.images
		};
	}

	/** Fetches the cues (and any missed messages) of messages shown live but not yet covered by a page. */
	private async catchUp(): Promise<void> {
		if (this.catchingUp) return;
		this.catchingUp = true;
		const mine = this.generation;
		try {
			while (this.model.needsCatchUp && mine === this.generation) {
				const { fetch, sessionId, pageSize } = this.source();
				const page = await fetchLogPage(fetch, sessionId, { after: this.model.pageThrough, limit: pageSize });
				if (mine !== this.generation) return;
				this.append(this.model.addPage(page));
				if (page.messages.length < pageSize) break;
			}
		} catch (err) {
			// The lines are shown already; their stage replay waits for the next live message to retry.
			console.warn('[kantera] backlog catch-up:', err instanceof Error ? err.message : err);
		} finally {
			this.catchingUp = false;
		}
	}

	private append(merge: Merge): void {
		if (merge.appended.length === 0) return;
		this.entries = this.model.entries;
		this.view.appended(merge.appended);
	}
}

/**
 * The backlog's data: the messages loaded so far (older pages in front, live messages at the end),
 * their rows, and the stage timeline that replays any row's stage. Plain TypeScript, no DOM and no
 * runes, so the merging rules are unit-tested; the paging feed (`feed.svelte.ts`) owns one.
 *
 * The timeline starts from the `stageBefore` of the oldest page loaded: the server folded every cue
 * before it, so the client never needs the cues of pages it has not loaded.
 */
import { EMPTY_STAGE, StageTimeline, type MessageCue, type StageState } from '../../adv';
import type { LogPageDto, MessageDto, StageImagesDto } from '../../types/log';
import { entriesOf, type BacklogEntry } from './entries';

export interface Merge {
	/** Rows added in front of the existing ones (their indexes moved by this much). */
	readonly prepended: BacklogEntry[];
	/** Rows added after the existing ones. */
	readonly appended: BacklogEntry[];
}

/** What the backlog needs of a message: the page's live messages (any shape with these) will do. */
export type BacklogMessage = Pick<MessageDto, 'id' | 'role' | 'body'>;

const NOTHING: Merge = { prepended: [], appended: [] };

export class BacklogModel {
	private messages: BacklogMessage[] = [];
	private readonly known = new Set<number>();
	private cues: MessageCue[] = [];
	private readonly cueMessages = new Set<number>();
	private initial: StageState = EMPTY_STAGE;
	private timeline = new StageTimeline();
	/** Rows in log order. Replaced (never mutated) on change, so a UI can compare by identity. */
	entries: readonly BacklogEntry[] = [];
	images: StageImagesDto = { characters: [], scenes: [] };
	/** `?before=` for the next older page; undefined when the start of the log is loaded. */
	nextBefore: number | undefined;
	/** Whether any page has arrived yet (an empty log is loaded too, with no rows). */
	loaded = false;
	/**
	 * The newest message id a server page has covered (0 for an empty log): live messages after it
	 * may still lack their cues, so the component asks for `?after=<pageThrough>`.
	 */
	pageThrough = 0;

	get messageCount(): number {
		return this.messages.length;
	}

	/** The newest message id loaded, or undefined. */
	get lastId(): number | undefined {
		return this.messages[this.messages.length - 1]?.id;
	}

	/** The oldest message id loaded, or undefined. */
	get firstId(): number | undefined {
		return this.messages[0]?.id;
	}

	get hasOlder(): boolean {
		return this.nextBefore !== undefined;
	}

	/** The first page (the latest messages). Replaces anything loaded before. */
	reset(page: LogPageDto): Merge {
		this.messages = [];
		this.known.clear();
		this.cues = [];
		this.cueMessages.clear();
		this.entries = [];
		this.pageThrough = 0;
		this.loaded = true;
		this.initial = page.stageBefore;
		this.nextBefore = page.nextBefore;
		this.images = page.images;
		this.timeline = new StageTimeline([], [], { initial: this.initial });
		return this.addPage(page);
	}

	/** A `?after=` page: newer messages with their cues; it also vouches that they have all their cues. */
	addPage(page: Pick<LogPageDto, 'messages' | 'cues' | 'images'>): Merge {
		const merge = this.addNewer(page.messages, page.cues, page.images);
		for (const m of page.messages) this.pageThrough = Math.max(this.pageThrough, m.id);
		return merge;
	}

	/** Whether messages newer than the last server page are shown (their cues are still to fetch). */
	get needsCatchUp(): boolean {
		return this.lastId !== undefined && this.lastId > this.pageThrough;
	}

	/** An older page (`?before=`): its rows go in front and the timeline now starts where it begins. */
	addOlder(page: LogPageDto): Merge {
		this.images = page.images;
		const fresh = page.messages.filter((m) => !this.known.has(m.id) && (this.firstId === undefined || m.id < this.firstId));
		this.nextBefore = page.nextBefore;
		if (fresh.length === 0) return NOTHING;
		for (const m of fresh) this.known.add(m.id);
		this.messages = [...fresh, ...this.messages];
		this.addCues(page.cues);
		this.initial = page.stageBefore;
		// The new first message moves the timeline's starting point: refold from it (cheap: cues are few).
		this.timeline = new StageTimeline(this.messages, this.cues, { initial: this.initial });
		const prepended = fresh.flatMap(entriesOf);
		this.entries = [...prepended, ...this.entries];
		return { prepended, appended: [] };
	}

	/**
	 * Newer messages (live play, or a `?after=` page) with any cues that came with them. Messages
	 * already known are skipped, but their cues still count: a live message arrives before its cues.
	 */
	addNewer(messages: readonly BacklogMessage[], cues: readonly MessageCue[] = [], images?: StageImagesDto): Merge {
		if (images) this.images = images;
		const last = this.lastId;
		const fresh = messages.filter((m) => !this.known.has(m.id) && (last === undefined || m.id > last)).sort((a, b) => a.id - b.id);
		for (const m of fresh) this.known.add(m.id);
		this.messages = fresh.length > 0 ? [...this.messages, ...fresh] : this.messages;
		const newCues = this.addCues(cues);
		if (fresh.length > 0 || newCues.length > 0) this.timeline.add(fresh, newCues);
		if (fresh.length === 0) return NOTHING;
		const appended = fresh.flatMap(entriesOf);
		this.entries = [...this.entries, ...appended];
		return { prepended: [], appended };
	}

	/** The stage while this paragraph of this message was shown. */
	stageAt(messageId: number, paragraph: number): StageState {
		return this.timeline.at(messageId, paragraph);
	}

	private addCues(cues: readonly MessageCue[]): MessageCue[] {
		// A page's cues are all of its messages' cues: skip a message whose cues arrived already.
		const fresh = cues.filter((c) => this.known.has(c.messageId) && !this.cueMessages.has(c.messageId));
		for (const c of fresh) this.cueMessages.add(c.messageId);
		this.cues = [...this.cues, ...fresh];
		return fresh;
	}
}

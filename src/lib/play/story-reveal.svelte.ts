/**
 * The reveal cursor of the text window: the reveal reducer's state, driven by clicks and by the frame
 * clock (which runs only while text is still coming out or auto mode waits to go on), and what it
 * tells the rest of the page as paragraphs complete: the read marks and the screen reader's line.
 */
import {
	atEnd,
	createReveal,
	currentKey,
	hasNextPage,
	isComplete,
	isPageDone,
	isRevealing,
	readKeys,
	reveal,
	type RevealEvent,
	type RevealState
} from '../adv';
import type { Line } from './exchange';
import type { ReadMarks } from './read-marks';

/** Where the reveal clock comes from: animation frames in the browser, a manual clock in tests. */
export interface FrameScheduler {
	request(callback: (now: number) => void): void;
}

export class StoryReveal {
	/**
	 * Starts instant: the server's HTML (and the first render in the browser, which must match it)
	 * shows whole paragraphs; the reader's speed applies from `configure` on.
	 */
	state = $state.raw<RevealState>(createReveal({ charsPerSecond: 0 }));
	/** The text of the paragraph most recently completed, for the screen reader's live region. */
	announcement = $state('');

	/* eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping nothing renders */
	private readonly announced = new Set<string>();
	private frames: FrameScheduler | null = null;
	/** Reads and announcements count only once a browser is attached (not in the server's render). */
	private attached = false;
	private framePending = false;
	private lastFrame: number | null = null;

	constructor(
		private readonly marks: ReadMarks,
		private readonly lineOf: (key: string) => Line | undefined
	) {}

	attach(frames: FrameScheduler | null): void {
		this.frames = frames;
		this.attached = true;
	}

	dispatch(event: RevealEvent): void {
		this.set(reveal(this.state, event));
	}

	set(next: RevealState): void {
		this.state = next;
		this.noteRead();
		this.schedule();
	}

	/** One animation frame: advances the reveal by the time since the last one. */
	frame(now: number): void {
		this.framePending = false;
		const ms = this.lastFrame === null ? 0 : now - this.lastFrame;
		this.lastFrame = now;
		this.dispatch({ type: 'tick', ms });
	}

	private noteRead(): void {
		if (!this.attached) return;
		const key = currentKey(this.state);
		if (key !== null) this.marks.place(key);
		if (key !== null && isComplete(this.state) && !this.announced.has(key)) {
			this.announced.add(key);
			const line = this.lineOf(key);
			if (line) this.announcement = line.speaker ? `${line.speaker}: ${line.text}` : line.text;
		}
		this.marks.note(readKeys(this.state));
	}

	private schedule(): void {
		const s = this.state;
		const waitsToGoOn = (isPageDone(s) && hasNextPage(s)) || (isComplete(s) && !atEnd(s));
		const needed = isRevealing(s) || (s.auto && waitsToGoOn);
		if (!needed) {
			this.lastFrame = null;
			return;
		}
		if (this.framePending || !this.frames) return;
		this.framePending = true;
		this.frames.request((now) => this.frame(now));
	}
}

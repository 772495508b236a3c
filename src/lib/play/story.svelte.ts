/**
 * The text window and the stage behind it, as one rune class: the exchange on screen (the player's
 * line and the GM's reply, streaming or committed), its paragraphs as the reveal shows them
 * (`StoryReveal`, with the read marks of `ReadMarks`), and the stage each paragraph had
 * (`StoryStage`: the play log's timeline and a streaming reply's provisional cues).
 *
 * Stage rules the screen keeps:
 * - while a reply streams, the stage is the last committed message's with the cues the GM has
 *   staged so far played at their paragraphs (provisionally); the speaker follows the paragraph's tag;
 * - once the turn commits, its cues (the same ones, now from the play log) play as the reader
 *   reaches their paragraphs;
 * - a failed or cancelled turn shows nothing of its reply and its staged cues are dropped: the stage
 *   is back where the last committed message left it;
 * - a speaker tag's expression (`@Name(smile): …`) shows on that character while the line is read.
 */
import {
	atEnd,
	currentKey,
	hasNextPage,
	isCaughtUp,
	isComplete,
	isPageDone,
	litSlots,
	pageGrapheme,
	reveal,
	unrevealedText,
	visibleText,
	withExpression,
	type MessageCue,
	type RevealState,
	type SlotLight,
	type StageCue,
	type StageSlot,
	type StageState
} from '../adv';
import type { MessageDto } from '../types/log';
import { exchangeLines, lastExchange, type Exchange, type Line } from './exchange';
import { ReadMarks, type ReadStorage } from './read-marks';
import { StoryReveal, type FrameScheduler } from './story-reveal.svelte';
import { StoryStage } from './story-stage.svelte';

export { lastExchange, type Exchange, type Line } from './exchange';
export type { ReadStorage } from './read-marks';
export type { FrameScheduler } from './story-reveal.svelte';

export interface StoryOptions {
	sessionId: string;
	messages: readonly MessageDto[];
	cues: readonly MessageCue[];
	initialStage?: StageState | undefined;
	storage?: ReadStorage | null | undefined;
	frames?: FrameScheduler | null | undefined;
	/** Names the GM registered; cues naming others still play but are logged. */
	knownCharacters?: () => Iterable<string>;
	knownScenes?: () => Iterable<string>;
	warn?: (message: string) => void;
}

export class Story {
	readonly sessionId: string;
	exchange = $state<Exchange | null>(null);
	lines = $state.raw<Line[]>([]);

	private readonly marks: ReadMarks;
	private readonly cursor: StoryReveal;
	private readonly storyStage: StoryStage;
	/** The turn played (or resumed) while this page is open: its reply follows the player's line by itself. */
	private liveTurn: string | null = null;

	/** The page on screen, as far as revealed. */
	readonly visible = $derived(visibleText(this.state));
	/** The rest of the paragraph: laid out unseen behind what is revealed. */
	readonly unrevealed = $derived(unrevealedText(this.state));
	readonly complete = $derived(isComplete(this.state));
	readonly caughtUp = $derived(isCaughtUp(this.state));
	readonly hasNext = $derived(this.state.current < this.state.items.length - 1);
	/** The page on screen is shown whole and more of the paragraph follows: a click turns the page. */
	readonly pageTurns = $derived(isPageDone(this.state) && hasNextPage(this.state));
	readonly current = $derived(this.lines.find((l) => l.key === currentKey(this.state)) ?? null);
	readonly stage = $derived(this.stageOf(this.current));
	readonly lights = $derived<{ readonly [S in StageSlot]: SlotLight }>(litSlots(this.stage));
	/** The stage at the exchange's last line: what a reader without JavaScript, who reads it all at once, sees. */
	readonly finalStage = $derived(this.stageOf(this.lines.at(-1) ?? null));

	constructor(options: StoryOptions) {
		this.sessionId = options.sessionId;
		const warn = options.warn ?? console.warn;
		this.marks = new ReadMarks(options.sessionId);
		this.cursor = new StoryReveal(this.marks, (key) => this.lines.find((l) => l.key === key));
		this.storyStage = new StoryStage({
			initialStage: options.initialStage,
			knownCharacters: options.knownCharacters,
			knownScenes: options.knownScenes,
			warn: (message) => {
				warn(`[kantera] ${message}`);
			}
		});
		this.storyStage.addLog(options.messages, options.cues);
		this.exchange = lastExchange(options.messages);
		this.refresh();
		if (options.storage !== undefined || options.frames !== undefined) this.attach(options.storage ?? null, options.frames ?? null);
	}

	private stageOf(line: Line | null): StageState {
		const state = this.storyStage.at(this.exchange, line);
		return line?.kind === 'dialogue' && line.speaker !== null && line.expression !== null
			? withExpression(state, line.speaker, line.expression)
			: state;
	}

	/** The reveal's state: which paragraph is on screen and how much of it shows. */
	get state(): RevealState {
		return this.cursor.state;
	}

	/** The text of the paragraph most recently completed, for the screen reader's live region. */
	get announcement(): string {
		return this.cursor.announcement;
	}

	/**
	 * Connects the browser: the read paragraphs stored on this device, where the reader was (the
	 * window goes back to that line; read lines are not skipped, Skip does that), and the
	 * animation-frame clock. Done after hydration, so the server's HTML and the first client render agree.
	 */
	attach(storage: ReadStorage | null, frames: FrameScheduler | null): void {
		this.marks.attach(storage);
		this.cursor.attach(frames);
		const at = this.marks.position;
		if (at !== null) this.cursor.dispatch({ type: 'resume', key: at, read: this.marks.has(at) });
	}

	/** The window measures its pages (a long paragraph is read a page at a time) or stops doing so. */
	setPaged(paged: boolean): void {
		this.cursor.dispatch({ type: 'setPaged', paged });
	}

	/**
	 * The window measured the page of `key` that starts at grapheme `start`: the next page starts at
	 * character `offset` of the text from the page's start (null: the rest fits).
	 */
	paginate(key: string, start: number, offset: number | null): void {
		const end = offset === null ? null : pageGrapheme(this.state, offset);
		this.cursor.dispatch({ type: 'page', key, start, end });
	}

	/** What the window measures: the paragraph and the page on screen, and whether its end is still unknown. */
	get pageToMeasure(): { key: string; start: number; text: string; unknown: boolean } | null {
		const s = this.state;
		const key = currentKey(s);
		const line = this.current;
		return s.paged && key !== null && line !== null ? { key, start: s.pageStart, text: line.text, unknown: s.pageEnd === undefined } : null;
	}

	/** Applies the reader's settings (speed, auto, auto delay) to the reveal. */
	configure(charsPerSecond: number, auto: boolean, autoDelayMs?: number): void {
		this.cursor.dispatch({ type: 'setSpeed', charsPerSecond });
		if (autoDelayMs !== undefined) this.cursor.dispatch({ type: 'setAutoDelay', ms: autoDelayMs });
		if (this.state.auto !== auto) this.cursor.dispatch({ type: 'toggleAuto' });
	}

	/** Click, Enter or Space: completes the paragraph, or goes on to the next. */
	click(): void {
		this.cursor.dispatch({ type: 'click' });
	}

	/** Jumps over paragraphs read before (on this device), to the first unread one. */
	skipRead(): void {
		this.cursor.dispatch({ type: 'skip', read: this.marks.keys });
	}

	/** Whether Skip has read text to go by: the paragraph on screen has been read before and more follows. */
	get canSkip(): boolean {
		const key = currentKey(this.state);
		return key !== null && this.marks.has(key) && !atEnd(this.state);
	}

	/**
	 * One step of Skip: text read before goes by, a page or a paragraph a step, as a click would take
	 * it. False where Skip stops: at a paragraph not read yet (shown from its start) or at the end.
	 */
	skipStep(): boolean {
		if (!this.canSkip) return false;
		this.click();
		return true;
	}

	/** The page opened mid-turn: show what streamed so far. */
	resume(turnId: string, input: string, text: string, staged: readonly StageCue[] = []): void {
		this.liveTurn = turnId;
		this.storyStage.stream(turnId, staged);
		this.exchange = { turnId, input, reply: text, final: false, messageId: null, outcome: 'streaming' };
		this.refresh();
	}

	/** Play together: the turn in flight answers queued lines too; `input` is all of them. */
	retell(turnId: string, input: string): void {
		if (this.exchange?.turnId === turnId) this.exchange = { ...this.exchange, input };
	}

	beginTurn(turnId: string, input: string): void {
		if (this.exchange?.turnId === turnId) return;
		this.liveTurn = turnId;
		this.storyStage.stream(turnId);
		this.exchange = { turnId, input, reply: '', final: false, messageId: null, outcome: 'streaming' };
		this.refresh();
	}

	appendDelta(turnId: string, text: string): void {
		const x = this.exchange;
		if (!x || x.turnId !== turnId || x.outcome !== 'streaming') return;
		x.reply += text;
		this.refresh();
	}

	/** The GM withdrew what it was writing (issue 27): the reply on screen goes back to `text`. */
	withdraw(turnId: string, text: string): void {
		const x = this.exchange;
		if (!x || x.turnId !== turnId || x.outcome !== 'streaming') return;
		x.reply = text;
		this.refresh();
	}

	/**
	 * The GM staged stage directions for the streaming reply: they play at their paragraphs from now
	 * on, provisionally (a failed or cancelled turn drops them, a commit replaces them with the log's).
	 */
	stageDirections(turnId: string, cues: readonly StageCue[]): void {
		const x = this.exchange;
		if (!x || x.turnId !== turnId || x.outcome !== 'streaming' || cues.length === 0) return;
		this.storyStage.stageDirections(turnId, cues);
	}

	/** The turn committed: the reply is final and its cues (in `cues`) play from here on. */
	commit(turnId: string, reply: string, messages: readonly MessageDto[], cues: readonly MessageCue[]): void {
		this.storyStage.commit(turnId, messages, cues);
		const gm = messages.findLast((m) => m.role === 'gm' && m.turnId === turnId);
		const input =
			this.exchange?.turnId === turnId
				? this.exchange.input
				: (messages.find((m) => m.role === 'player' && m.turnId === turnId)?.body ?? null);
		this.exchange = { turnId, input, reply: gm?.body ?? reply, final: true, messageId: gm?.id ?? null, outcome: 'committed' };
		this.refresh();
	}

	/** The turn ended without a reply: nothing of it plays; the player's line stays with the outcome. */
	end(turnId: string, outcome: 'failed' | 'cancelled' | 'interrupted', input?: string): void {
		this.storyStage.drop(turnId);
		const x = this.exchange;
		if (x && x.turnId === turnId) {
			this.exchange = { ...x, reply: '', final: true, outcome };
		} else {
			this.exchange = { turnId, input: input ?? null, reply: '', final: true, messageId: null, outcome };
		}
		this.refresh();
	}

	/** One animation frame: advances the reveal by the time since the last one. */
	frame(now: number): void {
		this.cursor.frame(now);
	}

	/** The largest message id the screen knows: the cursor for reading what a commit added. */
	get lastKnownMessageId(): number {
		return this.storyStage.lastKnownMessageId;
	}

	/** Re-reads the exchange into lines and the reveal. */
	private refresh(): void {
		const lines = exchangeLines(this.exchange);
		this.lines = lines;
		let next = reveal(this.state, {
			type: 'load',
			paragraphs: lines.map((l) => ({ key: l.key, text: l.text, partial: l.partial, instant: l.kind === 'player' }))
		});
		// The player's own line is shown whole at once and is no stop in a live turn: as soon as the
		// GM's first paragraph arrives (even while it still streams) the window goes on to it.
		const current = this.lines[next.current];
		if (current?.kind === 'player' && this.exchange?.turnId === this.liveTurn && next.current < next.items.length - 1)
			next = reveal(next, { type: 'advance' });
		this.cursor.set(next);
	}
}

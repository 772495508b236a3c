/**
 * The text window and the stage behind it, as one rune class: the exchange on screen (the player's
 * line and the GM's reply, streaming or committed), its paragraphs as the reveal reducer shows them,
 * and the stage each paragraph had (a `StageTimeline` over the loaded play log).
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
	applyCues,
	atEnd,
	createReveal,
	currentKey,
	EMPTY_STAGE,
	isCaughtUp,
	isComplete,
	litSlots,
	parseScript,
	playOrder,
	readKeys,
	reveal,
	StageTimeline,
	stageAt,
	visibleText,
	withExpression,
	withSpeaker,
	type StageCue,
	type RevealEvent,
	type RevealState,
	type SlotLight,
	type StageSlot,
	type MessageCue,
	type StageState
} from '../adv';
import type { MessageDto } from '../types/log';

type LineKind = 'player' | 'narration' | 'dialogue';

/** One paragraph of the text window. */
export interface Line {
	/** `${turn}:in` for the player's line, `${turn}:${paragraph}` for the GM's. */
	key: string;
	kind: LineKind;
	speaker: string | null;
	expression: string | null;
	/** The reply's paragraph number (what cues refer to); -1 for the player's line. */
	paragraph: number;
	text: string;
	partial: boolean;
}

type ExchangeOutcome = 'streaming' | 'committed' | 'failed' | 'cancelled' | 'interrupted';

/** What the text window tells: one player line and the GM's answer to it. */
export interface Exchange {
	turnId: string | null;
	input: string | null;
	reply: string;
	/** The reply is complete (committed): its last paragraph will not grow. */
	final: boolean;
	/** The committed GM message, once known: the stage plays its cues. */
	messageId: number | null;
	outcome: ExchangeOutcome;
}

/** Remembered read paragraphs per session; older ones drop off first. */
const MAX_READ_KEYS = 2000;

export interface ReadStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

/** Where the reveal clock comes from: animation frames in the browser, a manual clock in tests. */
export interface FrameScheduler {
	request(callback: (now: number) => void): void;
}

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

/** The key suffix of the player's line in an exchange (`${turn}:in`). */
const PLAYER_LINE = 'in';

function exchangeLines(x: Exchange | null): Line[] {
	if (!x) return [];
	const prefix = x.turnId ?? `m${x.messageId ?? 0}`;
	const lines: Line[] = [];
	if (x.input !== null)
		lines.push({
			key: `${prefix}:${PLAYER_LINE}`,
			kind: 'player',
			speaker: null,
			expression: null,
			paragraph: -1,
			text: x.input,
			partial: false
		});
	if (x.outcome === 'failed' || x.outcome === 'cancelled' || x.outcome === 'interrupted') return lines;
	for (const p of parseScript(x.reply, { final: x.final })) {
		// A complete paragraph with no text (a tag and nothing else) is not worth a click.
		if (p.text === '' && !p.partial) continue;
		lines.push({
			key: `${prefix}:${p.index}`,
			kind: p.kind,
			speaker: p.kind === 'dialogue' ? p.speaker : null,
			expression: p.kind === 'dialogue' ? (p.expression ?? null) : null,
			paragraph: p.index,
			text: p.text,
			partial: p.partial
		});
	}
	return lines;
}

/** The exchange the screen opens on: the newest GM message and the player line before it. */
export function lastExchange(messages: readonly MessageDto[]): Exchange | null {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m?.role !== 'gm') continue;
		const player = messages.slice(0, i).findLast((p) => p.role === 'player' && p.turnId !== null && p.turnId === m.turnId);
		return { turnId: m.turnId, input: player?.body ?? null, reply: m.body, final: true, messageId: m.id, outcome: 'committed' };
	}
	return null;
}

export class Story {
	readonly sessionId: string;
	exchange = $state<Exchange | null>(null);
	lines = $state.raw<Line[]>([]);
	/**
	 * Starts instant: the server's HTML (and the first render in the browser, which must match it)
	 * shows whole paragraphs; the reader's speed applies from `configure` on.
	 */
	state = $state.raw<RevealState>(createReveal({ charsPerSecond: 0 }));
	/** The text of the paragraph most recently completed, for the screen reader's live region. */
	announcement = $state('');

	/** Bumped when the timeline changes: it is a plain object, so the stage reads this to update. */
	private version = $state(0);
	private readonly timeline: StageTimeline;
	private readonly initialStage: StageState;
	/* eslint-disable svelte/prefer-svelte-reactivity -- bookkeeping nothing renders: the stage reads `version` and `state` */
	private knownMessages = new Set<number>();
	private lastMessageId = 0;
	private readonly read = new Set<string>();
	private readonly announced = new Set<string>();
	/* eslint-enable svelte/prefer-svelte-reactivity */
	private storage: ReadStorage | null = null;
	private frames: FrameScheduler | null = null;
	/** Reads and announcements count only once a browser is attached (not in the server's render). */
	private attached = false;
	private framePending = false;
	private lastFrame: number | null = null;
	private readonly options: StoryOptions;
	/** The turn played (or resumed) while this page is open: its reply follows the player's line by itself. */
	private liveTurn: string | null = null;
	/** Stage directions the streaming turn has staged: played live at their paragraphs, dropped if it fails. */
	private provisional = $state.raw<{ turnId: string; cues: readonly StageCue[] } | null>(null);

	readonly visible = $derived(visibleText(this.state));
	readonly complete = $derived(isComplete(this.state));
	readonly caughtUp = $derived(isCaughtUp(this.state));
	readonly hasNext = $derived(this.state.current < this.state.items.length - 1);
	readonly current = $derived(this.lines.find((l) => l.key === currentKey(this.state)) ?? null);
	readonly stage = $derived.by(() => {
		const line = this.current;
		const state = this.stageFor(line);
		return line?.kind === 'dialogue' && line.speaker !== null && line.expression !== null
			? withExpression(state, line.speaker, line.expression)
			: state;
	});
	readonly lights = $derived<{ readonly [S in StageSlot]: SlotLight }>(litSlots(this.stage));

	constructor(options: StoryOptions) {
		this.options = options;
		this.sessionId = options.sessionId;
		this.initialStage = options.initialStage ?? EMPTY_STAGE;
		this.timeline = new StageTimeline([], [], { initial: this.initialStage });
		this.addLog(options.messages, options.cues);
		this.exchange = lastExchange(options.messages);
		this.refresh();
		if (options.storage !== undefined || options.frames !== undefined) this.attach(options.storage ?? null, options.frames ?? null);
	}

	/**
	 * Connects the browser: the read paragraphs stored on this device (the reveal skips past them)
	 * and the animation-frame clock. Done after hydration, so the server's HTML and the first client
	 * render agree.
	 */
	attach(storage: ReadStorage | null, frames: FrameScheduler | null): void {
		this.storage = storage;
		this.frames = frames;
		this.attached = true;
		for (const key of this.loadRead()) this.read.add(key);
		this.dispatch({ type: 'skip', read: this.read });
	}

	/** Applies the reader's settings (speed, auto, auto delay) to the reveal. */
	configure(charsPerSecond: number, auto: boolean, autoDelayMs?: number): void {
		this.dispatch({ type: 'setSpeed', charsPerSecond });
		if (autoDelayMs !== undefined) this.dispatch({ type: 'setAutoDelay', ms: autoDelayMs });
		if (this.state.auto !== auto) this.dispatch({ type: 'toggleAuto' });
	}

	/** Click, Enter or Space: completes the paragraph, or goes on to the next. */
	click(): void {
		this.dispatch({ type: 'click' });
	}

	/** Jumps over paragraphs read before (on this device), to the first unread one. */
	skipRead(): void {
		this.dispatch({ type: 'skip', read: this.read });
	}

	/** Whether a skip would move: the paragraph on screen has been read before. */
	get canSkip(): boolean {
		const key = currentKey(this.state);
		return key !== null && this.read.has(key) && !atEnd(this.state);
	}

	/** The page opened mid-turn: show what streamed so far. */
	resume(turnId: string, input: string, text: string, staged: readonly StageCue[] = []): void {
		this.liveTurn = turnId;
		this.provisional = staged.length > 0 ? { turnId, cues: staged } : null;
		this.exchange = { turnId, input, reply: text, final: false, messageId: null, outcome: 'streaming' };
		this.refresh();
		this.dispatch({ type: 'skip', read: this.read });
	}

	beginTurn(turnId: string, input: string): void {
		if (this.exchange?.turnId === turnId) return;
		this.liveTurn = turnId;
		this.provisional = null;
		this.exchange = { turnId, input, reply: '', final: false, messageId: null, outcome: 'streaming' };
		this.refresh();
	}

	appendDelta(turnId: string, text: string): void {
		const x = this.exchange;
		if (!x || x.turnId !== turnId || x.outcome !== 'streaming') return;
		x.reply += text;
		this.refresh();
	}

	/**
	 * The GM staged stage directions for the streaming reply: they play at their paragraphs from now
	 * on, provisionally (a failed or cancelled turn drops them, a commit replaces them with the log's).
	 */
	stageDirections(turnId: string, cues: readonly StageCue[]): void {
		const x = this.exchange;
		if (!x || x.turnId !== turnId || x.outcome !== 'streaming' || cues.length === 0) return;
		const earlier = this.provisional?.turnId === turnId ? this.provisional.cues : [];
		this.provisional = { turnId, cues: [...earlier, ...cues] };
	}

	/** The turn committed: the reply is final and its cues (in `cues`) play from here on. */
	commit(turnId: string, reply: string, messages: readonly MessageDto[], cues: readonly MessageCue[]): void {
		this.provisional = null;
		this.addLog(messages, cues);
		const gm = messages.findLast((m) => m.role === 'gm' && m.turnId === turnId);
		const input =
			this.exchange?.turnId === turnId
				? this.exchange.input
				: (messages.find((m) => m.role === 'player' && m.turnId === turnId)?.body ?? null);
		this.exchange = { turnId, input, reply: gm?.body ?? reply, final: true, messageId: gm?.id ?? null, outcome: 'committed' };
		if (gm)
			this.logCueWarnings(
				gm.id,
				cues.filter((c) => c.messageId === gm.id)
			);
		this.refresh();
	}

	/** The turn ended without a reply: nothing of it plays; the player's line stays with the outcome. */
	end(turnId: string, outcome: 'failed' | 'cancelled' | 'interrupted', input?: string): void {
		if (this.provisional?.turnId === turnId) this.provisional = null;
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
		this.framePending = false;
		const ms = this.lastFrame === null ? 0 : now - this.lastFrame;
		this.lastFrame = now;
		this.dispatch({ type: 'tick', ms });
	}

	/** The largest message id the screen knows: the cursor for reading what a commit added. */
	get lastKnownMessageId(): number {
		return this.lastMessageId;
	}

	private stageFor(line: Line | null): StageState {
		void this.version;
		const x = this.exchange;
		if (x?.messageId != null && this.knownMessages.has(x.messageId)) {
			if (!line || line.kind === 'player') return this.timeline.before(x.messageId);
			return this.timeline.at(x.messageId, line.paragraph);
		}
		const base = this.lastMessageId === 0 ? this.initialStage : this.timeline.after(this.lastMessageId);
		// A streaming reply: its staged cues up to this paragraph. No paragraph count is given, since
		// more paragraphs are coming (a cue numbered past the end so far is simply not due yet).
		const staged =
			this.provisional !== null && this.provisional.turnId === x?.turnId && x.outcome === 'streaming' ? this.provisional.cues : [];
		const played = staged.length > 0 && line !== null && line.kind !== 'player' ? stageAt(base, staged, line.paragraph) : base;
		return withSpeaker(played, line?.kind === 'dialogue' ? line.speaker : null);
	}

	private addLog(messages: readonly MessageDto[], cues: readonly MessageCue[]): void {
		const fresh = messages.filter((m) => !this.knownMessages.has(m.id));
		if (fresh.length === 0 && cues.length === 0) return;
		const { rejected } = this.timeline.add(
			fresh.map((m) => ({ id: m.id, role: m.role, body: m.body })),
			cues.filter((c) => !this.knownMessages.has(c.messageId))
		);
		for (const r of rejected) this.warn(`stage cue of message ${r.messageId} ignored: it cannot be placed`);
		for (const m of fresh) {
			this.knownMessages.add(m.id);
			this.lastMessageId = Math.max(this.lastMessageId, m.id);
		}
		this.version++;
	}

	private logCueWarnings(messageId: number, cues: readonly MessageCue[]): void {
		if (cues.length === 0) return;
		const { warnings } = applyCues(this.timeline.before(messageId), playOrder(cues.map((c) => c.cue)), {
			knownCharacters: this.options.knownCharacters?.(),
			knownScenes: this.options.knownScenes?.()
		});
		for (const w of warnings) this.warn(`stage cue (${w.code}): ${w.message}`);
	}

	private warn(message: string): void {
		(this.options.warn ?? console.warn)(`[kantera] ${message}`);
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
		this.commitState(next);
	}

	private dispatch(event: RevealEvent): void {
		this.commitState(reveal(this.state, event));
	}

	private commitState(next: RevealState): void {
		this.state = next;
		this.noteRead();
		this.schedule();
	}

	private noteRead(): void {
		if (!this.attached) return;
		const key = currentKey(this.state);
		if (key !== null && isComplete(this.state) && !this.announced.has(key)) {
			this.announced.add(key);
			const line = this.lines.find((l) => l.key === key);
			if (line) this.announcement = line.speaker ? `${line.speaker}: ${line.text}` : line.text;
		}
		let added = false;
		for (const k of readKeys(this.state)) {
			if (!this.read.has(k)) {
				this.read.add(k);
				added = true;
			}
		}
		if (added) this.saveRead();
	}

	private schedule(): void {
		const s = this.state;
		const needed = !isCaughtUp(s) || (s.auto && isComplete(s) && !atEnd(s));
		if (!needed) {
			this.lastFrame = null;
			return;
		}
		if (this.framePending || !this.frames) return;
		this.framePending = true;
		this.frames.request((now) => this.frame(now));
	}

	private storageKey(): string {
		return `kantera.read.${this.sessionId}`;
	}

	private loadRead(): string[] {
		try {
			const raw = this.storage?.getItem(this.storageKey());
			if (!raw) return [];
			const parsed: unknown = JSON.parse(raw);
			return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
		} catch {
			return [];
		}
	}

	private saveRead(): void {
		if (!this.storage) return;
		try {
			const keys = [...this.read].slice(-MAX_READ_KEYS);
			this.storage.setItem(this.storageKey(), JSON.stringify(keys));
		} catch {
			// Storage full or blocked: skipping read text only lasts for this page then.
		}
	}
}

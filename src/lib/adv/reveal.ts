/**
 * Progressive text reveal, as a pure reducer: the text window renders `visibleText(state)` and feeds
 * events — animation-frame ticks, clicks (and Enter/Space), settings — through `reveal`. No timers
 * here; whoever owns the clock sends `tick`.
 *
 * Rules:
 * - `tick(ms)` reveals `charsPerSecond` graphemes per second of the current paragraph (0 = all at
 *   once). It never crosses into the next paragraph by itself, except in auto mode: once a paragraph
 *   is complete, `autoDelayMs` of ticks later it advances.
 * - `click` completes the paragraph if it is still revealing; if it is complete, advances.
 * - `advance` moves to the next paragraph only when the current one is complete.
 * - An `instant` paragraph (the player's own line) is shown whole as soon as it is on screen.
 * - A paragraph still streaming (`partial`) is never complete: the reveal catches up with the text
 *   that has arrived and waits for more.
 * - `skip(read)` passes over paragraphs whose keys are in the read set: it stops at the first unread
 *   paragraph (from its start) or, if all the rest are read, on the last one, complete. It does
 *   nothing while the current paragraph is unread.
 * - `load(paragraphs)` replaces the content (each streamed delta, or a new message). If the current
 *   paragraph's key is still there the reveal stays on it; otherwise it starts over at the first.
 * Every event returns the same state object when it changes nothing, so a UI can skip re-rendering.
 *
 * Counting is by grapheme (what a reader sees as one character), so an emoji, a flag, or a letter
 * with a combining accent never shows half-drawn.
 */

export const DEFAULT_CHARS_PER_SECOND = 40;
/** Above this the reveal is a blur anyway; 0 means instant. */
export const MAX_CHARS_PER_SECOND = 2000;
export const DEFAULT_AUTO_DELAY_MS = 1500;
export const MAX_AUTO_DELAY_MS = 60_000;
/** carry is kept in thousandths of a grapheme: ms × (graphemes / s). */
const MS_PER_SECOND = 1000;

/** A paragraph to reveal. `key` identifies it for the read set, e.g. `${messageId}:${index}`. */
export interface RevealSource {
	readonly key: string;
	readonly text: string;
	readonly partial?: boolean | undefined;
	/** Shown whole the moment it is on screen, whatever the speed (the player's own line). */
	readonly instant?: boolean | undefined;
}

interface RevealItem {
	readonly key: string;
	readonly text: string;
	readonly graphemes: readonly string[];
	readonly partial: boolean;
	readonly instant: boolean;
}

export interface RevealSettings {
	/** Graphemes per second; 0 shows each paragraph at once. */
	readonly charsPerSecond: number;
	readonly auto: boolean;
	/** In auto mode, how long a complete paragraph stays before the next. */
	readonly autoDelayMs: number;
}

export interface RevealState extends RevealSettings {
	readonly items: readonly RevealItem[];
	/** Index of the paragraph on screen (0 when there are none). */
	readonly current: number;
	/** Graphemes of the current paragraph shown. */
	readonly shown: number;
	/** Time not yet worth a whole grapheme, in ms × graphemes/s. */
	readonly carry: number;
	/** Time the current paragraph has been complete (counts only in auto mode). */
	readonly waitedMs: number;
}

export type RevealEvent =
	| { readonly type: 'load'; readonly paragraphs: readonly RevealSource[] }
	| { readonly type: 'tick'; readonly ms: number }
	| { readonly type: 'click' }
	| { readonly type: 'advance' }
	| { readonly type: 'setSpeed'; readonly charsPerSecond: number }
	| { readonly type: 'setAutoDelay'; readonly ms: number }
	| { readonly type: 'toggleAuto' }
	| { readonly type: 'skip'; readonly read: ReadonlySet<string> };

/** What `Intl.Segmenter` offers, so a test can pass none and exercise the fallback. */
export interface GraphemeSegmenter {
	segment(text: string): Iterable<{ segment: string }>;
}

function platformSegmenter(): GraphemeSegmenter | null {
	if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') return null;
	return new Intl.Segmenter(undefined, { granularity: 'grapheme' });
}

/**
 * Built once, on first use: a segmenter holds no state between calls, and creating one costs ~100 ms
 * in Chromium (ICU data), which must not land on page load.
 */
let segmenter: GraphemeSegmenter | null | undefined;
const defaultSegmenter = (): GraphemeSegmenter | null => (segmenter === undefined ? (segmenter = platformSegmenter()) : segmenter);

/** Fallback: code points, with combining marks and zero-width-joined sequences kept on their base. */
const CLUSTER = /\P{M}\p{M}*(?:\u200d\P{M}\p{M}*)*|\p{M}+/gsu;

export function splitGraphemes(text: string, using: GraphemeSegmenter | null = defaultSegmenter()): string[] {
	if (using) return Array.from(using.segment(text), (s) => s.segment);
	return text.match(CLUSTER) ?? [];
}

function clamp(n: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, n));
}

function speed(value: number): number | null {
	if (Number.isNaN(value) || value < 0) return null;
	if (value === Number.POSITIVE_INFINITY) return 0;
	return Math.min(value, MAX_CHARS_PER_SECOND);
}

export function createReveal(settings: Partial<RevealSettings> = {}): RevealState {
	return {
		items: [],
		current: 0,
		shown: 0,
		carry: 0,
		waitedMs: 0,
		charsPerSecond: speed(settings.charsPerSecond ?? DEFAULT_CHARS_PER_SECOND) ?? DEFAULT_CHARS_PER_SECOND,
		auto: settings.auto ?? false,
		autoDelayMs: clamp(settings.autoDelayMs ?? DEFAULT_AUTO_DELAY_MS, 0, MAX_AUTO_DELAY_MS)
	};
}

function currentItem(state: RevealState): RevealItem | null {
	return state.items[state.current] ?? null;
}

export function currentKey(state: RevealState): string | null {
	return currentItem(state)?.key ?? null;
}

/** The part of the current paragraph on screen. */
export function visibleText(state: RevealState): string {
	const item = currentItem(state);
	return item ? item.graphemes.slice(0, state.shown).join('') : '';
}

/** All the text that has arrived is shown (a streaming paragraph may still grow). */
export function isCaughtUp(state: RevealState): boolean {
	const item = currentItem(state);
	return !item || state.shown >= item.graphemes.length;
}

/** The paragraph is fully shown and will not grow: a click now advances. */
export function isComplete(state: RevealState): boolean {
	const item = currentItem(state);
	return item !== null && !item.partial && state.shown >= item.graphemes.length;
}

/** The last paragraph is complete: the reply has been read through. */
export function atEnd(state: RevealState): boolean {
	return isComplete(state) && state.current === state.items.length - 1;
}

/** Keys of the paragraphs read through so far: the ones passed, and the current one once complete. */
export function readKeys(state: RevealState): string[] {
	const passed = state.items.slice(0, state.current).map((i) => i.key);
	const key = currentKey(state);
	return isComplete(state) && key !== null ? [...passed, key] : passed;
}

/** Instant speed (or an instant item) shows the whole paragraph at once, whatever event brought it on screen. */
function settle(state: RevealState): RevealState {
	const item = currentItem(state);
	if (!item || state.shown >= item.graphemes.length) return state;
	if (state.charsPerSecond !== 0 && !item.instant) return state;
	return { ...state, shown: item.graphemes.length, carry: 0 };
}

function goTo(state: RevealState, index: number): RevealState {
	return settle({ ...state, current: index, shown: 0, carry: 0, waitedMs: 0 });
}

function advance(state: RevealState): RevealState {
	if (!isComplete(state) || state.current >= state.items.length - 1) return state;
	return goTo(state, state.current + 1);
}

function load(state: RevealState, sources: readonly RevealSource[]): RevealState {
	const previous = new Map(state.items.map((i) => [i.key, i]));
	const items = sources.map((s): RevealItem => {
		const partial = s.partial === true;
		const instant = s.instant === true;
		const old = previous.get(s.key);
		if (old && old.text === s.text) return old.partial === partial && old.instant === instant ? old : { ...old, partial, instant };
		return { key: s.key, text: s.text, graphemes: splitGraphemes(s.text), partial, instant };
	});
	const key = currentKey(state);
	const index = key === null ? -1 : items.findIndex((i) => i.key === key);
	if (index < 0) return goTo({ ...state, items }, 0);
	const item = items[index];
	const shown = Math.min(state.shown, item ? item.graphemes.length : 0);
	const next: RevealState = { ...state, items, current: index, shown };
	return settle(isComplete(next) ? next : { ...next, waitedMs: 0 });
}

function tick(state: RevealState, ms: number): RevealState {
	if (!Number.isFinite(ms) || ms <= 0) return state;
	const item = currentItem(state);
	if (!item) return state;
	if (isComplete(state)) {
		if (!state.auto || state.current >= state.items.length - 1) return state;
		const waitedMs = state.waitedMs + ms;
		return waitedMs >= state.autoDelayMs ? advance(state) : { ...state, waitedMs };
	}
	if (isCaughtUp(state)) return state;
	if (state.charsPerSecond === 0) return settle(state);
	const carry = state.carry + ms * state.charsPerSecond;
	const whole = Math.floor(carry / MS_PER_SECOND);
	const shown = Math.min(item.graphemes.length, state.shown + whole);
	const caughtUp = shown >= item.graphemes.length;
	return { ...state, shown, carry: caughtUp ? 0 : carry - whole * MS_PER_SECOND, waitedMs: 0 };
}

function skip(state: RevealState, read: ReadonlySet<string>): RevealState {
	const key = currentKey(state);
	if (key === null || !read.has(key)) return state;
	let i = state.current;
	while (i < state.items.length - 1) {
		const next = state.items[i + 1];
		if (!next || !read.has(next.key)) return goTo(state, i + 1);
		i++;
	}
	const last = state.items[i];
	const shown = last ? last.graphemes.length : 0;
	if (i === state.current && state.shown === shown) return state;
	return { ...state, current: i, shown, carry: 0, waitedMs: 0 };
}

export function reveal(state: RevealState, event: RevealEvent): RevealState {
	switch (event.type) {
		case 'load':
			return load(state, event.paragraphs);
		case 'tick':
			return tick(state, event.ms);
		case 'click': {
			if (isComplete(state)) return advance(state);
			const item = currentItem(state);
			if (!item || isCaughtUp(state)) return state;
			return { ...state, shown: item.graphemes.length, carry: 0, waitedMs: 0 };
		}
		case 'advance':
			return advance(state);
		case 'setSpeed': {
			const cps = speed(event.charsPerSecond);
			if (cps === null || cps === state.charsPerSecond) return state;
			return settle({ ...state, charsPerSecond: cps, carry: 0 });
		}
		case 'setAutoDelay': {
			if (!Number.isFinite(event.ms)) return state;
			const autoDelayMs = clamp(event.ms, 0, MAX_AUTO_DELAY_MS);
			return autoDelayMs === state.autoDelayMs ? state : { ...state, autoDelayMs };
		}
		case 'toggleAuto':
			return { ...state, auto: !state.auto, waitedMs: 0 };
		case 'skip':
			return skip(state, event.read);
		default:
			return state;
	}
}

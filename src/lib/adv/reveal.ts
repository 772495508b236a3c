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
 * - `resume(key, read)` goes to the paragraph with that key (where the reader was): shown whole if it
 *   was read, else from its start. An unknown key changes nothing.
 *
 * Pages: a paragraph longer than the text window is read a page at a time. With `paged` on (the
 * window measures its pages; off, a paragraph is one page), the window reports where the page on
 * screen ends (`page`), and the reveal treats that end as it treats a paragraph's: it never reveals
 * past it by itself, a click completes the page, the next click turns to the next page (auto mode
 * turns it after `autoDelayMs`), and only the last page's end completes the paragraph. Until the
 * page on screen is measured nothing more of it is revealed (the window measures it in the same
 * task, before anything is painted).
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
	/** Time the current paragraph (or page) has been complete (counts only in auto mode). */
	readonly waitedMs: number;
	/** The window measures pages: a paragraph is read a page at a time. */
	readonly paged: boolean;
	/** Grapheme at which the page on screen starts. */
	readonly pageStart: number;
	/** Grapheme at which the next page starts; null: the rest of the paragraph fits; undefined: not measured yet. */
	readonly pageEnd: number | null | undefined;
}

export type RevealEvent =
	| { readonly type: 'load'; readonly paragraphs: readonly RevealSource[] }
	| { readonly type: 'tick'; readonly ms: number }
	| { readonly type: 'click' }
	| { readonly type: 'advance' }
	| { readonly type: 'setSpeed'; readonly charsPerSecond: number }
	| { readonly type: 'setAutoDelay'; readonly ms: number }
	| { readonly type: 'toggleAuto' }
	| { readonly type: 'skip'; readonly read: ReadonlySet<string> }
	| { readonly type: 'resume'; readonly key: string; readonly read: boolean }
	| { readonly type: 'setPaged'; readonly paged: boolean }
	/** The window measured the page that starts at `start` of paragraph `key`: the next starts at `end` (null: none). */
	| { readonly type: 'page'; readonly key: string; readonly start: number; readonly end: number | null };

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
		paged: false,
		pageStart: 0,
		pageEnd: null,
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

/** The part of the current paragraph on screen: its page, as far as revealed. */
export function visibleText(state: RevealState): string {
	const item = currentItem(state);
	return item ? item.graphemes.slice(state.pageStart, state.shown).join('') : '';
}

/** The rest of the current paragraph after what is revealed: laid out unseen, so words never jump as they appear. */
export function unrevealedText(state: RevealState): string {
	const item = currentItem(state);
	return item ? item.graphemes.slice(state.shown).join('') : '';
}

/**
 * The grapheme of the current paragraph that holds UTF-16 offset `offset` of the page on screen's
 * text (counted from the page's start): where a page the window measured in characters ends.
 */
export function pageGrapheme(state: RevealState, offset: number): number {
	const item = currentItem(state);
	if (!item) return 0;
	let at = 0;
	for (let i = state.pageStart; i < item.graphemes.length; i++) {
		at += item.graphemes[i]?.length ?? 0;
		if (offset < at) return i;
	}
	return item.graphemes.length;
}

/** How far the page on screen may be revealed: its end, the paragraph's end, or (not measured yet) nothing more. */
function pageLimit(state: RevealState): number {
	const length = currentItem(state)?.graphemes.length ?? 0;
	if (!state.paged || state.pageEnd === null) return length;
	if (state.pageEnd === undefined) return state.shown;
	return Math.min(state.pageEnd, length);
}

/** More of the paragraph follows the page on screen (a click turns to it). */
export function hasNextPage(state: RevealState): boolean {
	const item = currentItem(state);
	return state.paged && typeof state.pageEnd === 'number' && item !== null && state.pageEnd < item.graphemes.length;
}

/** The page on screen is fully shown (a click now turns the page or goes on), measured or not. */
export function isPageDone(state: RevealState): boolean {
	return currentItem(state) !== null && state.pageEnd !== undefined && state.shown >= pageLimit(state);
}

/** Text is still to be revealed on the page on screen: the clock has work. */
export function isRevealing(state: RevealState): boolean {
	return state.shown < pageLimit(state);
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
	const limit = pageLimit(state);
	if (!item || state.shown >= limit) return state;
	if (state.charsPerSecond !== 0 && !item.instant) return state;
	return { ...state, shown: limit, carry: 0 };
}

/** A page of the current paragraph from grapheme `start`, unmeasured when paged. */
function onPage(state: RevealState, start: number): RevealState {
	return { ...state, pageStart: start, pageEnd: state.paged ? undefined : null };
}

function goTo(state: RevealState, index: number): RevealState {
	return settle(onPage({ ...state, current: index, shown: 0, carry: 0, waitedMs: 0 }, 0));
}

/** The next page of the current paragraph, when its page on screen is done. */
function turnPage(state: RevealState): RevealState {
	if (!isPageDone(state) || !hasNextPage(state) || typeof state.pageEnd !== 'number') return state;
	return settle(onPage({ ...state, waitedMs: 0, carry: 0 }, state.pageEnd));
}

/**
 * The window measured a page. A page that no longer holds what is revealed (the window shrank, or
 * the reveal jumped to the paragraph's end) gives way to the next one, measured in turn.
 */
function measured(state: RevealState, event: Extract<RevealEvent, { type: 'page' }>): RevealState {
	const item = currentItem(state);
	if (!state.paged || !item || item.key !== event.key || state.pageStart !== event.start) return state;
	const length = item.graphemes.length;
	// A page holds at least one grapheme, so the reader always gets on.
	const end = event.end === null || event.end >= length ? null : Math.max(event.end, state.pageStart + 1);
	if (end !== null && state.shown > end) return onPage(state, end);
	if (end === state.pageEnd) return state;
	return settle({ ...state, pageEnd: end });
}

function advance(state: RevealState): RevealState {
	if (!isComplete(state) || state.current >= state.items.length - 1) return state;
	return goTo(state, state.current + 1);
}

function load(state: RevealState, sources: readonly RevealSource[]): RevealState {
	const before = currentItem(state);
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
	let next: RevealState = { ...state, items, current: index, shown };
	// Grown text may not fit on a page that held all of it: measured again.
	if (state.paged && item !== before && state.pageEnd === null) next = { ...next, pageEnd: undefined };
	// Text that shrank (a streaming tag settled) under the page on screen: its pages are measured anew.
	if (next.pageStart > shown) next = onPage(next, 0);
	return settle(isComplete(next) ? next : { ...next, waitedMs: 0 });
}

function tick(state: RevealState, ms: number): RevealState {
	if (!Number.isFinite(ms) || ms <= 0) return state;
	const item = currentItem(state);
	if (!item) return state;
	const turnsPage = isPageDone(state) && hasNextPage(state);
	if (isComplete(state) || turnsPage) {
		if (!state.auto || (!turnsPage && state.current >= state.items.length - 1)) return state;
		const waitedMs = state.waitedMs + ms;
		if (waitedMs < state.autoDelayMs) return { ...state, waitedMs };
		return turnsPage ? turnPage(state) : advance(state);
	}
	const limit = pageLimit(state);
	if (state.shown >= limit) return state;
	if (state.charsPerSecond === 0) return settle(state);
	const carry = state.carry + ms * state.charsPerSecond;
	const whole = Math.floor(carry / MS_PER_SECOND);
	const shown = Math.min(limit, state.shown + whole);
	return { ...state, shown, carry: shown >= limit ? 0 : carry - whole * MS_PER_SECOND, waitedMs: 0 };
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
	return shownWhole(state, i);
}

/** Paragraph `index` shown whole: on its last page once the window has measured its pages. */
function shownWhole(state: RevealState, index: number): RevealState {
	const item = state.items[index];
	const shown = item ? item.graphemes.length : 0;
	// Another paragraph is measured from its start; on this one, a page that cannot hold the rest is measured again.
	const page =
		index !== state.current
			? onPage(state, 0)
			: typeof state.pageEnd === 'number' && state.pageEnd < shown
				? onPage(state, state.pageStart)
				: state;
	return { ...page, current: index, shown, carry: 0, waitedMs: 0 };
}

function resume(state: RevealState, key: string, read: boolean): RevealState {
	const index = state.items.findIndex((i) => i.key === key);
	if (index < 0) return state;
	return read ? shownWhole(state, index) : goTo(state, index);
}

export function reveal(state: RevealState, event: RevealEvent): RevealState {
	switch (event.type) {
		case 'load':
			return load(state, event.paragraphs);
		case 'tick':
			return tick(state, event.ms);
		case 'click': {
			if (isPageDone(state) && hasNextPage(state)) return turnPage(state);
			if (isComplete(state)) return advance(state);
			const item = currentItem(state);
			// A page not measured yet (the window is not laid out): the click shows the paragraph as one page.
			const limit = state.pageEnd === undefined ? (item?.graphemes.length ?? 0) : pageLimit(state);
			if (!item || state.shown >= limit) return state;
			return { ...state, shown: limit, carry: 0, waitedMs: 0 };
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
		case 'resume':
			return resume(state, event.key, event.read);
		case 'setPaged':
			// The paragraph on screen starts again from its first page: shown whole before, it would otherwise open on its last.
			return event.paged === state.paged ? state : goTo({ ...state, paged: event.paged }, state.current);
		case 'page':
			return measured(state, event);
		default:
			return state;
	}
}

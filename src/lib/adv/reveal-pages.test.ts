import { describe, expect, it } from 'vitest';
import {
	createReveal,
	hasNextPage,
	isComplete,
	isPageDone,
	isRevealing,
	pageGrapheme,
	readKeys,
	reveal,
	unrevealedText,
	visibleText,
	type RevealEvent,
	type RevealState
} from './reveal';
import { seeded } from '../../../tests/helpers/random';

function run(state: RevealState, ...events: RevealEvent[]): RevealState {
	return events.reduce(reveal, state);
}
const click: RevealEvent = { type: 'click' };
const tick = (ms: number): RevealEvent => ({ type: 'tick', ms });
const paged: RevealEvent = { type: 'setPaged', paged: true };
/** The window's measure of the page on screen. */
const page = (s: RevealState, end: number | null): RevealEvent => ({
	type: 'page',
	key: s.items[s.current]?.key ?? '',
	start: s.pageStart,
	end
});
/** A window three letters and a space wide and one line high: every page is one "word". */
const WORDS = 'aaa bbb ccc';
const byWord = (s: RevealState): number | null => {
	const next = WORDS.indexOf(' ', s.pageStart);
	return next < 0 ? null : next + 1;
};
const load = (...texts: string[]): RevealEvent => ({ type: 'load', paragraphs: texts.map((text, i) => ({ key: `m:${i}`, text })) });
/** Measures the page on screen as the window would, in the same task as the change that needs it. */
const splitCount = (s: RevealState) => s.items[s.current]?.graphemes.length;
function measure(s: RevealState): RevealState {
	for (let i = 0; i < 10 && s.pageEnd === undefined; i++) s = reveal(s, page(s, byWord(s)));
	return s;
}

describe('reveal, a page at a time', () => {
	it('reveals nothing of a page until the window has measured it', () => {
		const s = run(createReveal({ charsPerSecond: 0 }), paged, load(WORDS));
		expect(s.pageEnd).toBeUndefined();
		expect(visibleText(s)).toBe('');
		expect(isRevealing(s)).toBe(false);
		expect(visibleText(measure(s))).toBe('aaa ');
	});

	it('a paragraph shown whole before the window measures pages (the page as served) starts again from its first page', () => {
		const whole = run(createReveal({ charsPerSecond: 0 }), load(WORDS));
		expect(visibleText(whole)).toBe(WORDS);
		const s = measure(reveal(whole, paged));
		expect([s.pageStart, visibleText(s)]).toEqual([0, 'aaa ']);
	});

	it('one click a page; only the last page completes the paragraph, and the next click goes on', () => {
		let s = measure(run(createReveal({ charsPerSecond: 0 }), paged, load(WORDS, 'next')));
		expect([visibleText(s), unrevealedText(s)]).toEqual(['aaa ', 'bbb ccc']);
		expect(isPageDone(s) && hasNextPage(s)).toBe(true);
		expect(isComplete(s)).toBe(false);
		expect(readKeys(s)).toEqual([]);
		s = measure(reveal(s, click));
		expect(visibleText(s)).toBe('bbb ');
		s = measure(reveal(s, click));
		expect(visibleText(s)).toBe('ccc');
		expect(hasNextPage(s)).toBe(false);
		expect(isComplete(s)).toBe(true);
		expect(readKeys(s)).toEqual(['m:0']);
		s = measure(reveal(s, click));
		expect([s.current, visibleText(s)]).toEqual([1, 'next']);
	});

	it('at a reading speed a click completes the page, not the paragraph', () => {
		let s = measure(run(createReveal({ charsPerSecond: 10 }), paged, load(WORDS)));
		s = reveal(s, tick(100));
		expect(visibleText(s)).toBe('a');
		s = reveal(s, click);
		expect(visibleText(s)).toBe('aaa ');
		// The clock stops at the page's end: the rest waits for the reader.
		s = reveal(s, tick(5000));
		expect([visibleText(s), isRevealing(s)]).toEqual(['aaa ', false]);
		s = measure(reveal(s, click));
		s = reveal(s, tick(200));
		expect(visibleText(s)).toBe('bb');
	});

	it('auto mode turns the page after the auto delay', () => {
		let s = measure(run(createReveal({ charsPerSecond: 0, auto: true, autoDelayMs: 500 }), paged, load(WORDS)));
		s = reveal(s, tick(400));
		expect(visibleText(s)).toBe('aaa ');
		s = measure(reveal(s, tick(200)));
		expect(visibleText(s)).toBe('bbb ');
	});

	it('a paragraph shown whole (a skip, a resume) lands on its last page once measured', () => {
		let s = run(createReveal({ charsPerSecond: 0 }), paged, load('x', WORDS));
		s = measure(reveal(s, { type: 'resume', key: 'm:1', read: true }));
		expect([s.current, visibleText(s), isComplete(s)]).toEqual([1, 'ccc', true]);
		// Unread, it starts from its first page.
		s = measure(reveal(s, { type: 'resume', key: 'm:0', read: false }));
		s = measure(reveal(s, { type: 'resume', key: 'm:1', read: false }));
		expect(visibleText(s)).toBe('aaa ');
		// An unknown key (another exchange) changes nothing.
		expect(reveal(s, { type: 'resume', key: 'z:0', read: true })).toBe(s);
	});

	it('streamed text that outgrows the page waits on the page; a stale or foreign measure is ignored', () => {
		let s = measure(
			run(createReveal({ charsPerSecond: 0 }), paged, { type: 'load', paragraphs: [{ key: 'm:0', text: 'aaa', partial: true }] })
		);
		expect([visibleText(s), s.pageEnd]).toEqual(['aaa', null]);
		s = run(s, { type: 'load', paragraphs: [{ key: 'm:0', text: 'aaa bbb', partial: true }] });
		expect(s.pageEnd).toBeUndefined();
		expect(reveal(s, { type: 'page', key: 'other', start: 0, end: 4 })).toBe(s);
		expect(reveal(s, { type: 'page', key: 'm:0', start: 3, end: 4 })).toBe(s);
		s = measure(s);
		expect([visibleText(s), hasNextPage(s)]).toEqual(['aaa ', true]);
	});

	it('a page that no longer holds what is shown (a smaller window) gives way to the next', () => {
		let s = measure(run(createReveal({ charsPerSecond: 0 }), paged, load(WORDS)));
		s = reveal(s, { type: 'page', key: 'm:0', start: 0, end: null });
		expect(visibleText(s)).toBe(WORDS);
		s = run(s, { type: 'page', key: 'm:0', start: 0, end: 4 });
		expect([s.pageStart, s.pageEnd]).toEqual([4, undefined]);
		// A measure of no room at all still gives a page one grapheme.
		s = run(createReveal({ charsPerSecond: 0 }), paged, load(WORDS), { type: 'page', key: 'm:0', start: 0, end: 0 });
		expect([s.pageEnd, visibleText(s)]).toEqual([1, 'a']);
	});

	it('turns a character offset of the page measured into the grapheme it falls in', () => {
		let s = measure(run(createReveal({ charsPerSecond: 0 }), paged, load('aa 👍🏽b cc')));
		expect(splitCount(s)).toBe(8);
		// 'aa ' is 3 units; the thumb with its skin tone is 4 units and one grapheme.
		expect([0, 2, 3, 5, 6, 7, 8].map((o) => pageGrapheme(s, o))).toEqual([0, 2, 3, 3, 3, 4, 5]);
		s = { ...s, pageStart: 3 };
		expect([0, 3, 4, 99].map((o) => pageGrapheme(s, o))).toEqual([3, 3, 4, 8]);
	});

	it('without paging a paragraph is one page, as before', () => {
		const s = run(createReveal({ charsPerSecond: 0 }), load(WORDS));
		expect([visibleText(s), isComplete(s), hasNextPage(s)]).toEqual([WORDS, true, false]);
		expect(reveal(s, page(s, 4))).toBe(s);
	});

	it('keeps its invariants under random events with pages', () => {
		const rng = seeded(4242);
		for (let round = 0; round < 200; round++) {
			let s = run(createReveal({ charsPerSecond: rng.pick([0, 5, 40]) }), paged);
			for (let i = 0; i < 60; i++) {
				const event = rng.pick<() => RevealEvent>([
					() => ({
						type: 'load',
						paragraphs: Array.from({ length: 1 + rng.int(3) }, (_, k) => ({
							key: `k${k}`,
							text: rng.pick(['', 'ab', WORDS, 'x'.repeat(30)]),
							partial: rng.chance(0.3)
						}))
					}),
					() => tick(rng.pick([0, 16, 250, 5000])),
					() => click,
					() => page(s, rng.pick([null, 0, 1, 3, 7, 40])),
					() => ({ type: 'toggleAuto' }),
					() => ({ type: 'resume', key: rng.pick(['k0', 'k1', 'k2']), read: rng.chance(0.5) }),
					() => ({ type: 'skip', read: new Set(['k0', 'k1']) })
				])();
				s = reveal(s, event);
				const length = s.items[s.current]?.graphemes.length ?? 0;
				expect(s.pageStart).toBeLessThanOrEqual(s.shown);
				expect(s.shown).toBeLessThanOrEqual(length);
				if (typeof s.pageEnd === 'number') expect(s.pageEnd).toBeGreaterThan(s.pageStart);
			}
		}
	});
});

import { describe, expect, it } from 'vitest';
import {
	atEnd,
	createReveal,
	currentKey,
	DEFAULT_AUTO_DELAY_MS,
	isCaughtUp,
	isComplete,
	MAX_CHARS_PER_SECOND,
	readKeys,
	reveal,
	splitGraphemes,
	visibleText,
	type RevealEvent,
	type RevealSource,
	type RevealState
} from './reveal';
import { parseScript } from './script';
import { seeded } from '../../../tests/helpers/random';

const src = (...texts: string[]): RevealSource[] => texts.map((text, i) => ({ key: `m:${i}`, text }));
function run(state: RevealState, ...events: RevealEvent[]): RevealState {
	return events.reduce(reveal, state);
}
const tick = (ms: number): RevealEvent => ({ type: 'tick', ms });
const click: RevealEvent = { type: 'click' };
const load = (paragraphs: RevealSource[]): RevealEvent => ({ type: 'load', paragraphs });
/** A streaming reply's paragraphs as the reveal's sources, keyed by paragraph. */
const sourcesOf = (ps: readonly { index: number; text: string; partial: boolean }[]): RevealSource[] =>
	ps.map((p) => ({ key: `7:${p.index}`, text: p.text, partial: p.partial }));

describe('splitGraphemes', () => {
	const tricky = 'e\u0301👍🏽🇯🇵👨‍👩‍👧が';

	it('keeps combining marks, emoji sequences and flags whole with Intl.Segmenter', () => {
		expect(splitGraphemes(tricky)).toEqual(['e\u0301', '👍🏽', '🇯🇵', '👨‍👩‍👧', 'が']);
	});

	it('falls back to code points with marks and joiners attached', () => {
		const parts = splitGraphemes(tricky, null);
		expect(parts.join('')).toBe(tricky);
		expect(parts).toContain('e\u0301');
		expect(parts).toContain('👨‍👩‍👧');
		// No part is half a surrogate pair.
		for (const p of parts) expect(p.isWellFormed()).toBe(true);
		expect(splitGraphemes('', null)).toEqual([]);
		expect(splitGraphemes('\u0301a', null)).toEqual(['\u0301', 'a']);
	});
});

describe('reveal', () => {
	it('shows an instant paragraph whole at any speed, then reveals the next one at the set speed', () => {
		let s = run(
			createReveal({ charsPerSecond: 10 }),
			load([
				{ key: 'x:in', text: 'my whole line', instant: true },
				{ key: 'x:0', text: 'abc' }
			])
		);
		expect(visibleText(s)).toBe('my whole line');
		expect(isComplete(s)).toBe(true);
		s = run(s, click, tick(100));
		expect(visibleText(s)).toBe('a');
	});

	it('reveals at the set speed, carrying fractions of a character between ticks', () => {
		let s = run(createReveal({ charsPerSecond: 10 }), load(src('abcdefghij')));
		expect(visibleText(s)).toBe('');
		s = run(s, tick(50));
		expect(visibleText(s)).toBe('');
		s = run(s, tick(50));
		expect(visibleText(s)).toBe('a');
		s = run(s, tick(33), tick(33), tick(34));
		expect(visibleText(s)).toBe('ab');
		s = run(s, tick(10_000));
		expect(visibleText(s)).toBe('abcdefghij');
		expect(isComplete(s)).toBe(true);
	});

	it('never splits a grapheme while revealing', () => {
		let s = run(createReveal({ charsPerSecond: 1 }), load(src('👍🏽e\u0301x')));
		s = run(s, tick(1000));
		expect(visibleText(s)).toBe('👍🏽');
		s = run(s, tick(1000));
		expect(visibleText(s)).toBe('👍🏽e\u0301');
	});

	it('click completes, a second click advances; advance waits for completion', () => {
		let s = run(createReveal(), load(src('First line.', 'Second.')));
		expect(run(s, { type: 'advance' })).toBe(s);
		s = run(s, click);
		expect(visibleText(s)).toBe('First line.');
		expect(s.current).toBe(0);
		s = run(s, click);
		expect(s.current).toBe(1);
		expect(visibleText(s)).toBe('');
		s = run(s, click);
		expect(atEnd(s)).toBe(true);
		expect(run(s, click)).toBe(s);
		expect(readKeys(s)).toEqual(['m:0', 'm:1']);
	});

	it('does not cross into the next paragraph without a click unless auto is on', () => {
		let s = run(createReveal({ charsPerSecond: 100 }), load(src('ab', 'cd')), tick(1000), tick(60_000));
		expect(s.current).toBe(0);
		s = run(s, { type: 'toggleAuto' }, tick(1000));
		expect(s.current).toBe(0);
		s = run(s, tick(DEFAULT_AUTO_DELAY_MS));
		expect(s.current).toBe(1);
		expect(visibleText(s)).toBe('');
	});

	it('auto mode waits autoDelayMs after completion, then advances', () => {
		let s = run(createReveal({ charsPerSecond: 1000, auto: true, autoDelayMs: 500 }), load(src('abc', 'def', 'ghi')), tick(3));
		expect(isComplete(s)).toBe(true);
		s = run(s, tick(499));
		expect(s.current).toBe(0);
		s = run(s, tick(1));
		expect(s.current).toBe(1);
		s = run(s, tick(3), tick(500), tick(3), tick(500));
		expect(atEnd(s)).toBe(true);
		expect(run(s, tick(10_000))).toBe(s);
	});

	it('speed 0 (or Infinity) shows paragraphs at once; nonsense speeds are ignored', () => {
		let s = run(createReveal({ charsPerSecond: 0 }), load(src('abc', 'def')));
		expect(visibleText(s)).toBe('abc');
		s = run(s, click);
		expect(visibleText(s)).toBe('def');
		const slow = run(createReveal(), load(src('abc')));
		expect(visibleText(run(slow, { type: 'setSpeed', charsPerSecond: Number.POSITIVE_INFINITY }))).toBe('abc');
		expect(run(slow, { type: 'setSpeed', charsPerSecond: -5 })).toBe(slow);
		expect(run(slow, { type: 'setSpeed', charsPerSecond: Number.NaN })).toBe(slow);
		expect(run(slow, { type: 'setSpeed', charsPerSecond: 1e9 }).charsPerSecond).toBe(MAX_CHARS_PER_SECOND);
		expect(run(slow, tick(-1), tick(Number.NaN))).toBe(slow);
	});

	it('skip passes read paragraphs and stops at the first unread one', () => {
		const s = run(createReveal(), load(src('a', 'b', 'c', 'd')));
		const read = new Set(['m:0', 'm:1']);
		const skipped = run(s, { type: 'skip', read });
		expect(skipped.current).toBe(2);
		expect(visibleText(skipped)).toBe('');
		expect(run(skipped, { type: 'skip', read })).toBe(skipped);
		const all = run(s, { type: 'skip', read: new Set(['m:0', 'm:1', 'm:2', 'm:3']) });
		expect(all.current).toBe(3);
		expect(atEnd(all)).toBe(true);
	});

	it('follows a streaming reply: catches up, waits, and keeps its place as text arrives', () => {
		const reply = '@Bram: Halt, who goes there?\n\nThe wind howls.';
		let s = createReveal({ charsPerSecond: 20 });
		let previousText = '';
		for (let cut = 1; cut <= reply.length; cut += 3) {
			const ps = parseScript(reply.slice(0, cut), { final: false });
			s = run(s, load(sourcesOf(ps)), tick(100));
			const text = visibleText(s);
			// What is on screen only grows while the paragraph stays the same.
			if (s.current === 0) expect(text.startsWith(previousText)).toBe(true);
			previousText = text;
			// A streaming paragraph is never complete, so nothing advances past it.
			if (currentPartial(s)) expect(isComplete(s)).toBe(false);
		}
		s = run(s, load(sourcesOf(parseScript(reply, { final: true }))), tick(10_000));
		expect(isComplete(s)).toBe(true);
	});

	it('a click on a caught-up streaming paragraph does nothing; new text resumes the reveal', () => {
		let s = run(createReveal({ charsPerSecond: 1000 }), load([{ key: 'k', text: 'abc', partial: true }]), tick(100));
		expect(isCaughtUp(s)).toBe(true);
		expect(isComplete(s)).toBe(false);
		expect(run(s, click)).toBe(s);
		s = run(s, load([{ key: 'k', text: 'abcdef', partial: true }]));
		expect(visibleText(s)).toBe('abc');
		s = run(s, tick(100));
		expect(visibleText(s)).toBe('abcdef');
	});

	it('names the paragraph on screen by its key, and none before any text', () => {
		expect(currentKey(createReveal())).toBeNull();
		let s = run(createReveal({ charsPerSecond: 0 }), load(src('One.', 'Two.')));
		expect(currentKey(s)).toBe('m:0');
		s = run(s, click);
		expect(currentKey(s)).toBe('m:1');
		expect(visibleText(s)).toBe('Two.');
	});

	it('a new message starts over at its first paragraph', () => {
		let s = run(createReveal(), load(src('a', 'b')), click, click);
		expect(s.current).toBe(1);
		s = run(s, load([{ key: 'n:0', text: 'new' }]));
		expect([s.current, s.shown]).toEqual([0, 0]);
	});

	it('never throws and keeps its invariants under random events', () => {
		const rng = seeded(31337);
		const texts = ['', 'a', 'héllo', '👍🏽👍🏽', 'ブラム「止まれ」', 'x'.repeat(50)];
		for (let run_ = 0; run_ < 200; run_++) {
			let s = createReveal({ charsPerSecond: rng.pick([0, 5, 40, 500]) });
			for (let i = 0; i < 60; i++) {
				const event: RevealEvent = rng.pick<() => RevealEvent>([
					() =>
						load(
							Array.from({ length: rng.int(4) }, (_, k) => ({ key: `k${k + rng.int(2)}`, text: rng.pick(texts), partial: rng.chance(0.3) }))
						),
					() => tick(rng.pick([0, 1, 16, 250, 5000, -3])),
					() => click,
					() => ({ type: 'advance' }),
					() => ({ type: 'setSpeed', charsPerSecond: rng.pick([0, 1, 30, -1, 1e6]) }),
					() => ({ type: 'toggleAuto' }),
					() => ({ type: 'skip', read: new Set(['k0', 'k1']) })
				])();
				s = reveal(s, event);
				const item = s.items[s.current];
				expect(s.current === 0 || item !== undefined).toBe(true);
				expect(s.shown).toBeGreaterThanOrEqual(0);
				expect(s.shown).toBeLessThanOrEqual(item?.graphemes.length ?? 0);
				expect(Number.isFinite(s.carry) && s.carry >= 0 && s.carry < 1000).toBe(true);
			}
		}
	});
});

function currentPartial(s: RevealState): boolean {
	return s.items[s.current]?.partial ?? false;
}

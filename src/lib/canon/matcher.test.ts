import { describe, expect, it } from 'vitest';
import { fold } from './fold';
import { TermMatcher, type CanonTerm } from './matcher';
import { StreamCheck } from './stream';

const term = (text: string, kind: CanonTerm['kind'] = 'anachronism'): CanonTerm => ({ text, kind, source: text });
const matcher = (...texts: string[]) => new TermMatcher(texts.map((t) => term(t)));
const found = (m: TermMatcher, text: string) => m.findAll(text).map((h) => text.slice(h.start, h.end));

describe('fold', () => {
	it('sets case, width, accents, kana and spacing aside', () => {
		expect(fold('ＴＶ Café')).toBe('tv cafe');
		expect(fold('ﾗｼﾞｵ')).toBe(fold('ラジオ'));
		expect(fold('ラジオ')).toBe(fold('らじお'));
		expect(fold('jet \n aircraft')).toBe('jet aircraft');
		// Voicing is meaningful: が is not か.
		expect(fold('ガス')).not.toBe(fold('カス'));
	});
});

describe('TermMatcher', () => {
	it('matches Latin terms as words, with their plurals', () => {
		const m = matcher('gun', 'battery', 'torch');
		expect(found(m, 'A gun, two guns; the Gun.')).toEqual(['gun', 'guns', 'Gun']);
		expect(found(m, 'It had begun. The gunwale creaked. A gunner.')).toEqual([]);
		expect(found(m, 'Batteries and torches.')).toEqual(['Batteries', 'torches']);
		expect(found(m, "the gun's barrel")).toEqual(['gun']);
	});

	it('matches Japanese terms anywhere, across width and kana', () => {
		const m = matcher('電気', 'ラジオ');
		expect(found(m, '町には電気が通っていた。')).toEqual(['電気']);
		expect(found(m, 'ﾗｼﾞｵから声がする')).toEqual(['ﾗｼﾞｵ']);
		expect(found(m, 'らじおを点けた')).toEqual(['らじお']);
	});

	it('treats Japanese next to a Latin term as a word edge', () => {
		expect(found(matcher('TV'), 'あのＴＶを見た')).toEqual(['ＴＶ']);
	});

	it('matches terms of several words across line breaks and double spaces', () => {
		expect(found(matcher('jet aircraft'), 'the jet\n  aircraft roared')).toEqual(['jet\n  aircraft']);
	});

	it('finds nothing without terms', () => {
		expect(found(new TermMatcher([]), 'anything')).toEqual([]);
	});
});

/** Streams `deltas` through a check; returns what was released and the hit, if any. */
function stream(m: TermMatcher, deltas: readonly string[]) {
	const check = new StreamCheck(m);
	let shown = '';
	for (const delta of [...deltas, null]) {
		const step = delta === null ? check.end() : check.push(delta);
		if ('hit' in step) return { shown, hit: step.hit.term.text };
		shown += step.release;
	}
	return { shown, hit: undefined };
}

describe('StreamCheck', () => {
	it('stops on a term split across deltas, having released none of it', () => {
		const m = matcher('sealed order');
		const r = stream(m, ['He hands you the se', 'aled or', 'der from Haig.']);
		expect(r.hit).toBe('sealed order');
		expect(r.shown).toBe('He hands you the ');
	});

	it('holds only an ending that could begin a term, and releases it when it does not', () => {
		const m = matcher('gunpowder');
		const check = new StreamCheck(m);
		expect(check.push('The gun')).toEqual({ release: 'The ' });
		expect(check.push('ner waits.')).toEqual({ release: 'gunner waits.' });
		expect(check.end()).toEqual({ release: '' });
	});

	it('waits for the word edge of a term at the end of what has come', () => {
		const m = matcher('gun');
		const check = new StreamCheck(m);
		expect(check.push('It had begun')).toEqual({ release: 'It had begun' });
		expect(check.push(' a gun')).toEqual({ release: ' a ' });
		expect(check.push('wale')).toEqual({ release: 'gunwale' });
		expect(stream(m, ['a gun'])).toMatchObject({ hit: 'gun', shown: 'a ' });
	});

	it('catches Japanese terms across deltas and widths', () => {
		expect(stream(matcher('封緘命令'), ['彼は封', '緘', '命令を差し出した'])).toEqual({ shown: '彼は', hit: '封緘命令' });
		expect(stream(matcher('ラジオ'), ['ﾗｼﾞ', 'ｵが鳴る'])).toEqual({ shown: '', hit: 'ラジオ' });
	});

	it('releases everything when no term is near', () => {
		expect(stream(matcher('telephone'), ['Fog ', 'on the ', 'road.'])).toEqual({ shown: 'Fog on the road.', hit: undefined });
	});
});

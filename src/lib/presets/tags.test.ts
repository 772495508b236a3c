import { describe, expect, it } from 'vitest';
import { normaliseTag, tagKey } from './tags';

describe('tags', () => {
	it('keeps the case an author typed but not full-width letters, a leading # or doubled spaces', () => {
		expect(normaliseTag('  #Sci-Fi ')).toBe('Sci-Fi');
		expect(normaliseTag('ＳＦ　ミステリー')).toBe('SF ミステリー');
		expect(normaliseTag('slow   burn')).toBe('slow burn');
	});

	it('gives one key to the spellings of the same tag', () => {
		expect(tagKey('＃Ｓｃｉ－Ｆｉ')).toBe(tagKey('sci-fi'));
		expect(tagKey('Slow Burn')).toBe('slow burn');
	});
});

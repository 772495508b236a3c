import { describe, expect, it } from 'vitest';
import { analyseQuery, ftsQuote } from '../../../src/lib/server/search/query';
import { reciprocalRankFusion, RRF_K } from '../../../src/lib/server/search/fuse';
import { cutHits } from '../../../src/lib/server/search/vector-search';

describe('analyseQuery', () => {
	it('splits Japanese at script changes and drops particles', () => {
		expect(analyseQuery('北門の衛兵')).toMatchObject({ substrings: ['北門の衛兵'], short: ['北門', '衛兵'], words: [] });
		expect(analyseQuery('ブラムはどこ？')).toMatchObject({ substrings: ['ブラムはどこ', 'ブラム'], short: [] });
	});

	it('drops English stop words and keeps two-letter words as short terms', () => {
		expect(analyseQuery('Where is the HP potion?')).toMatchObject({ substrings: ['potion'], short: ['hp'], words: ['hp', 'potion'] });
	});

	it('folds full-width text and never emits FTS syntax', () => {
		expect(analyseQuery('ＡＮＤ （ｆｏｒｇｅ） "smug*"')).toMatchObject({ substrings: ['forge', 'smug'], words: ['forge', 'smug'] });
		expect(ftsQuote('a"b')).toBe('"a""b"');
	});
});

describe('fusion and cut', () => {
	it('fuses by reciprocal rank', () => {
		const fused = reciprocalRankFusion([
			[1, 2, 3],
			[3, 1]
		]);
		expect(fused.map((f) => f.id)).toEqual([1, 3, 2]);
		expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2), 10);
	});

	it('cuts below the floor and far below the top', () => {
		const hits = [0.6, 0.5, 0.44, 0.3].map((similarity, id) => ({ id, similarity }));
		expect(cutHits(hits, 0.2, 0.15).map((h) => h.id)).toEqual([0, 1]);
		expect(cutHits(hits, 0.7)).toEqual([]);
	});
});

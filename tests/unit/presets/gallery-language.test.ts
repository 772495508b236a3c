/**
 * The gallery's query checks speak the parse's language: the gallery page passes the reader's and
 * shows why an address was not understood; the API parses without one and answers in English.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { GalleryQuerySchema } from '../../../src/lib/server/gallery';
import type { Language } from '../../../src/lib/types/settings';

function problem(query: Record<string, string>, lang?: Language): string {
	const parsed = v.safeParse(GalleryQuerySchema, query, { lang });
	if (parsed.success) throw new Error('the query was accepted');
	return parsed.issues[0].message;
}

describe('gallery query messages', () => {
	it.each([
		[{ q: 'x'.repeat(101) }, 'A search has at most 100 characters.', '検索語は 100 文字までです。'],
		[
			{ q: 'a\u0000b' },
			'The search contains a control character (such as NUL); only tabs and line breaks are allowed.',
			'検索語に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。'
		],
		[{ shelf: 'oldest' }, 'shelf must be new, popular or favorites', '棚は「新着」「人気」「お気に入り」のどれかです。'],
		[{ language: 'fr' }, 'language must be ja or en', '言語は ja か en で指定してください。'],
		[{ limit: '0' }, 'limit must be at least 1', '件数は 1 以上です。'],
		[{ limit: '61' }, 'limit must be at most 60', '件数は 60 までです。'],
		[{ cursor: 'c'.repeat(301) }, 'cursor is not one this server gave out', 'ページ指定が、このサーバーの出したものではありません。']
	])('%o: English by default and for English readers, Japanese for Japanese ones', (query, english, japanese) => {
		expect(problem(query)).toBe(english);
		expect(problem(query, 'en')).toBe(english);
		expect(problem(query, 'ja')).toBe(japanese);
	});
});

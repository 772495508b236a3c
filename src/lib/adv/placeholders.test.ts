/** The drawn stand-ins as SVG: safe text, short labels, and ids that never clash between two drawings on one page. */
import { describe, expect, it } from 'vitest';
import { backdropSvg, cutLabel, escapeXml, figureSvg } from './placeholders';
import { PLACE_KINDS } from './place';

const ids = (svg: string) => [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
const references = (svg: string) => [...svg.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]);

describe('escapeXml', () => {
	it('escapes the five markup characters', () => {
		expect(escapeXml(`<b class="x">Tom & 'Jerry'</b>`)).toBe('&lt;b class=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/b&gt;');
	});

	it('drops the characters XML does not allow, and keeps tabs and line breaks', () => {
		expect(escapeXml('a\u0000b\u001bc\uffffd\ufffe')).toBe('abcd');
		expect(escapeXml('a\tb\nc\r')).toBe('a\tb\nc\r');
	});
});

describe('cutLabel', () => {
	it('keeps a short label, and cuts a long one to the limit with an ellipsis', () => {
		expect(cutLabel('Bram', 5)).toBe('Bram');
		expect(cutLabel('Brams', 5)).toBe('Brams');
		expect(cutLabel('Bramble', 5)).toBe('Bram…');
	});

	it('counts characters, not UTF-16 units, so an emoji is never split', () => {
		expect(cutLabel('😀😀😀😀', 3)).toBe('😀😀…');
		expect(cutLabel('😀😀😀', 3)).toBe('😀😀😀');
	});
});

describe('drawings', () => {
	it('prefix every id of a backdrop, and refer only to their own ids', () => {
		for (const kind of PLACE_KINDS) {
			const svg = backdropSvg(kind, { idPrefix: 'bg1' });
			expect(ids(svg).length, kind).toBeGreaterThan(0);
			expect(
				ids(svg).every((id) => id?.startsWith('bg1-')),
				kind
			).toBe(true);
			expect(new Set(references(svg)), kind).toEqual(new Set(ids(svg)));
			expect(backdropSvg(kind, { idPrefix: 'bg1' }), kind).toBe(svg);
		}
	});

	it('tint a backdrop’s colours, not its shapes', () => {
		const cold = backdropSvg('street', { idPrefix: 'a', tint: 0 });
		const warm = backdropSvg('street', { idPrefix: 'a', tint: 1 });
		expect(cold).not.toBe(warm);
		expect(cold.replace(/hsl\([^)]*\)/g, '')).toBe(warm.replace(/hsl\([^)]*\)/g, ''));
	});

	it('draw a figure’s expression as a face, a pose and a tint, never as words', () => {
		const faces = ['calm', 'smiling', 'in tears', 'furious', 'startled', 'terrified', 'puzzled'].map((e) =>
			figureSvg({ idPrefix: 'fig', expression: e })
		);
		expect(new Set(faces).size).toBe(faces.length);
		expect(faces.map((svg) => /data-mood="(\w+)"/.exec(svg)?.[1])).toEqual([
			'neutral',
			'happy',
			'sad',
			'angry',
			'surprised',
			'afraid',
			'thinking'
		]);
		const odd = figureSvg({ idPrefix: 'fig', expression: '<b>&amp; a very long expression' });
		expect(odd).not.toContain('<text');
		expect(odd).not.toContain('<b>');
		expect(odd).toBe(figureSvg({ idPrefix: 'fig' }));
		expect(ids(odd).every((id) => id?.startsWith('fig-'))).toBe(true);
	});
});

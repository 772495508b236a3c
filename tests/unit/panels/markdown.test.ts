/** The documents panel's Markdown: structure, and that nothing in a document can become markup. */
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import { inlineText, parseInline, parseMarkdown } from '../../../src/lib/components/panels/markdown';
import Markdown from '../../../src/lib/components/panels/Markdown.svelte';

describe('parseMarkdown', () => {
	it('reads headings, paragraphs, lists, quotes, code and rules', () => {
		const blocks = parseMarkdown(
			'# Vesca\nA port town.\nFoggy.\n\n## North gate ##\n- guards\n- a *tall* tower\n  with bells\n1. ' +
				'first\n2) second\n\n> rumour\n\n```\n# not a heading\n```\n---'
		);
		expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'heading', 'list', 'list', 'quote', 'code', 'rule']);
		expect(blocks[0]).toEqual({ type: 'heading', level: 1, children: [{ type: 'text', text: 'Vesca' }] });
		expect(blocks[1]).toEqual({ type: 'paragraph', children: [{ type: 'text', text: 'A port town.\nFoggy.' }] });
		expect(blocks[2]).toMatchObject({ type: 'heading', level: 2, children: [{ type: 'text', text: 'North gate' }] });
		const bullets = blocks[3];
		expect(bullets?.type === 'list' && !bullets.ordered && bullets.items.map(inlineText)).toEqual(['guards', 'a tall tower\nwith bells']);
		const numbered = blocks[4];
		expect(numbered?.type === 'list' && numbered.ordered && numbered.items.map(inlineText)).toEqual(['first', 'second']);
		expect(blocks[6]).toEqual({ type: 'code', text: '# not a heading' });
	});

	it('reads Japanese text and full-width spaces', () => {
		const blocks = parseMarkdown('# 北門\n衛兵が**二人**いる。\n\u3000\n- 鐘楼');
		expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list']);
		expect(blocks[1]).toEqual({
			type: 'paragraph',
			children: [
				{ type: 'text', text: '衛兵が' },
				{ type: 'strong', children: [{ type: 'text', text: '二人' }] },
				{ type: 'text', text: 'いる。' }
			]
		});
	});
});

describe('parseInline', () => {
	it('nests emphasis, keeps unmatched markers and escapes as text, and drops link targets', () => {
		expect(parseInline('**bold *and em***')).toEqual([
			{
				type: 'strong',
				children: [
					{ type: 'text', text: 'bold ' },
					{ type: 'em', children: [{ type: 'text', text: 'and em' }] }
				]
			}
		]);
		expect(inlineText(parseInline('2 * 3 * 4 and *open'))).toBe('2 * 3 * 4 and *open');
		expect(inlineText(parseInline('\\*not em\\*'))).toBe('*not em*');
		expect(parseInline('see [the map](javascript:alert(1)) and ![x](http://evil/img.png)')).toEqual([
			{ type: 'text', text: 'see the map and x' }
		]);
		expect(parseInline('[a](b(c)d) [unclosed](x')).toEqual([{ type: 'text', text: 'a [unclosed](x' }]);
		expect(parseInline('`<b>` code')).toEqual([
			{ type: 'code', text: '<b>' },
			{ type: 'text', text: ' code' }
		]);
	});

	it('stays linear on long runs of unmatched markers', () => {
		const n = 100_000;
		const runs = ['*a '.repeat(n), '['.repeat(n), '`'.repeat(1) + 'x'.repeat(n), '_'.repeat(n)];
		for (const text of runs) expect(inlineText(parseInline(text)).length).toBeGreaterThan(0);
	});
});

describe('Markdown.svelte', () => {
	it('renders hostile documents as text: no element, attribute or URL from the document gets through', () => {
		const hostile = [
			'# <img src=x onerror=alert(1)>',
			'<script>alert("x")</script>',
			'Hello <b onclick="steal()">there</b> & "friends"',
			'- <iframe src="javascript:alert(1)">',
			'[click](javascript:alert(1))',
			'**<svg onload=alert(1)>**',
			'```\n</code></pre><script>alert(2)</script>\n```'
		].join('\n\n');
		const { body } = render(Markdown, { props: { source: hostile } });
		// Every tag in the output is one the renderer writes, and its only attribute is the scoped class.
		const tags = [...body.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)];
		expect(tags.length).toBeGreaterThan(10);
		for (const [whole, name = '', attrs = ''] of tags) {
			expect(['div', 'h3', 'p', 'ul', 'li', 'strong', 'pre', 'code'], whole).toContain(name.toLowerCase());
			expect(attrs.trim(), whole).toMatch(/^(class="[\w -]+")?$/);
		}
		expect(body).toContain('&lt;script>alert("x")&lt;/script>');
		expect(body).toContain('&lt;img src=x onerror=alert(1)>');
		expect(body).toContain('&amp;');
		expect(body).toMatch(/<h3[^>]*>/);
		expect(body.replace(/<!--[^>]*-->/g, '')).toContain('<strong>&lt;svg onload=alert(1)></strong>');
	});
});

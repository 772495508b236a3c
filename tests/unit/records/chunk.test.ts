import { describe, it, expect } from 'vitest';
import { chunkMarkdown, splitWindows, MAX_SECTION_CHARS } from '../../../src/lib/server/records';

const paths = (title: string, body: string) => chunkMarkdown(title, body).map((c) => c.path);

describe('chunkMarkdown', () => {
	it('gives every section its heading path, title first', () => {
		const body = ['Intro text.', '# North', 'Cold.', '## North Gate', 'Guarded.', '## Harbour', 'Ships.', '# South', 'Warm.'].join('\n');
		const chunks = chunkMarkdown('Geography', body);
		expect(chunks.map((c) => [c.path, c.body])).toEqual([
			['Geography', 'Intro text.'],
			['Geography › North', 'Cold.'],
			['Geography › North › North Gate', 'Guarded.'],
			['Geography › North › Harbour', 'Ships.'],
			['Geography › South', 'Warm.']
		]);
		expect(chunks[2]?.parts).toEqual(['Geography', 'North', 'North Gate']);
	});

	it('works for Japanese headings, including an ideographic space after #', () => {
		const body = '## 北部\n寒い土地。\n###　北門\n北門の衛兵は夜に交代する。\n## 南部\n暖かい。';
		expect(chunkMarkdown('地理', body).map((c) => [c.path, c.body])).toEqual([
			['地理 › 北部', '寒い土地。'],
			['地理 › 北部 › 北門', '北門の衛兵は夜に交代する。'],
			['地理 › 南部', '暖かい。']
		]);
	});

	it('pops skipped heading levels correctly', () => {
		const body = '## A\na\n#### A1\na1\n### A2\na2\n###### deep\nd\n## B\nb\n# Top\nt';
		expect(paths('T', body)).toEqual(['T › A', 'T › A › A1', 'T › A › A2', 'T › A › A2 › deep', 'T › B', 'T › Top']);
	});

	it('does not treat # inside fenced code as a heading', () => {
		const body = [
			'# Setup',
			'```bash',
			'# install',
			'npm i',
			'```',
			'after code',
			'~~~~',
			'## not a heading',
			'~~~',
			'still code',
			'~~~~',
			'## Real'
		].join('\n');
		const chunks = chunkMarkdown('Doc', body);
		expect(chunks.map((c) => c.path)).toEqual(['Doc › Setup', 'Doc › Setup › Real']);
		expect(chunks[0]?.body).toContain('# install');
		expect(chunks[0]?.body).toContain('## not a heading');
		expect(chunks[0]?.body).toContain('still code');
	});

	it('requires a space after # (hashtags are text) and strips closing hashes', () => {
		const chunks = chunkMarkdown('D', '#tag is text\n## Closed ##\nx\n####### seven is text');
		expect(chunks.map((c) => [c.path, c.body])).toEqual([
			['D', '#tag is text'],
			['D › Closed', 'x\n####### seven is text']
		]);
	});

	it('keeps empty sections, so a bare heading is still found by its path', () => {
		const chunks = chunkMarkdown('World', '# Places\n## 北門\n## South\nsun');
		expect(chunks.map((c) => [c.path, c.body])).toEqual([
			['World › Places', ''],
			['World › Places › 北門', ''],
			['World › Places › South', 'sun']
		]);
	});

	it('drops blank text before the first heading but keeps a title section for a document without headings', () => {
		expect(paths('T', '\n\n# A\na')).toEqual(['T › A']);
		expect(chunkMarkdown('T', '')).toEqual([{ parts: ['T'], path: 'T', body: '', window: 0 }]);
		expect(chunkMarkdown('T', 'just text').map((c) => [c.path, c.body])).toEqual([['T', 'just text']]);
	});

	it('accepts a multi-part root', () => {
		expect(chunkMarkdown(['Memory', 'ミラ'], '# 性格\n明るい').map((c) => c.path)).toEqual(['Memory › ミラ › 性格']);
	});

	it('splits a long section into bounded windows with the same path and an ordinal', () => {
		const para = 'The lantern swings. '.repeat(40).trim();
		const body = `# Long\n${[para, para, para, para].join('\n\n')}\n# Short\nok`;
		const chunks = chunkMarkdown('Doc', body);
		const long = chunks.filter((c) => c.path === 'Doc › Long');
		expect(long.length).toBeGreaterThan(1);
		expect(long.map((c) => c.window)).toEqual(long.map((_, i) => i));
		for (const c of long) expect(c.body.length).toBeLessThanOrEqual(MAX_SECTION_CHARS);
		expect(chunks[chunks.length - 1]).toMatchObject({ path: 'Doc › Short', body: 'ok', window: 0 });
	});
});

describe('splitWindows', () => {
	it('prefers paragraph breaks', () => {
		const a = 'a'.repeat(700);
		const b = 'b'.repeat(700);
		expect(splitWindows(`${a}\n\n${b}`)).toEqual([a, b]);
	});

	it('cuts Japanese text after 。 (keeping a closing bracket with its sentence)', () => {
		const sentence = '北門の衛兵は夜になると松明を掲げて城壁の上を巡回し、旅人に合言葉を尋ねる。';
		const text = `${sentence.repeat(20)}「それは本当か？」と彼は言った。${sentence.repeat(20)}`;
		const windows = splitWindows(text);
		expect(windows.length).toBeGreaterThan(1);
		for (const w of windows) {
			expect(w.length).toBeLessThanOrEqual(MAX_SECTION_CHARS);
			expect(w).toMatch(/[。」]$/);
		}
		expect(windows.join('')).toBe(text);
	});

	it('cuts English at a sentence end, not inside a number', () => {
		const text = 'Pi is 3.14 and the road is long. '.repeat(60).trim();
		const windows = splitWindows(text);
		for (const w of windows) expect(w.endsWith('.')).toBe(true);
		expect(windows.join(' ')).toBe(text);
	});

	it('hard-cuts text without any boundary, never splitting a surrogate pair', () => {
		// One leading ASCII letter puts a high surrogate exactly at the cut point.
		const text = 'a' + '𠮷'.repeat(1000);
		const windows = splitWindows(text);
		expect(windows.length).toBeGreaterThan(1);
		for (const w of windows) {
			expect(w.length).toBeLessThanOrEqual(MAX_SECTION_CHARS);
			expect([...w.replace(/^a/, '')].every((ch) => ch === '𠮷')).toBe(true);
		}
		expect(windows.join('')).toBe(text);
	});

	it('returns nothing for blank text and one window for short text', () => {
		expect(splitWindows('  \n ')).toEqual([]);
		expect(splitWindows(' short ')).toEqual(['short']);
	});
});

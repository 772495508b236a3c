import { describe, expect, it } from 'vitest';
import {
	countParagraphs,
	MALFORMED_TAG_WINDOW,
	MAX_SPEAKER_CHARS,
	MAX_TAG_EXPRESSION_CHARS,
	parseScript,
	parseSpeakerTag,
	type Paragraph,
	type ParseOptions
} from './script';
import { seeded, type Random } from '../../../tests/helpers/random';

const final = { final: true } as const;
const streaming = { final: false } as const;

function shape(p: Paragraph): string {
	return p.kind === 'dialogue' ? `${p.speaker}${p.expression !== undefined ? `(${p.expression})` : ''}: ${p.text}` : `~ ${p.text}`;
}
const read = (text: string, options: ParseOptions = final) => parseScript(text, options).map(shape);

describe('parseScript: the tag grammar', () => {
	it('tells dialogue from narration, numbering paragraphs from 0', () => {
		const ps = parseScript('The gate is shut.\n\n@Bram: Halt.\n\n@Bram(stern): Who goes there?', final);
		expect(ps).toEqual([
			{ index: 0, kind: 'narration', text: 'The gate is shut.', partial: false },
			{ index: 1, kind: 'dialogue', speaker: 'Bram', text: 'Halt.', partial: false },
			{ index: 2, kind: 'dialogue', speaker: 'Bram', expression: 'stern', text: 'Who goes there?', partial: false }
		]);
	});

	it('accepts full-width at, colon and parentheses, mixed widths too', () => {
		expect(read('@ブラム（笑顔）：ようこそ。')).toEqual(['ブラム(笑顔): ようこそ。']);
		expect(read('＠ブラム：止まれ。')).toEqual(['ブラム: 止まれ。']);
		expect(read('@ブラム(笑顔）: よし')).toEqual(['ブラム(笑顔): よし']);
	});

	it('trims the name and the expression, and keeps inner spaces', () => {
		expect(read('@  Old Bram  (  very stern ) :   Halt.')).toEqual(['Old Bram(very stern): Halt.']);
	});

	it('lets the text start on the line after the tag', () => {
		expect(read('@Bram:\nHalt!\nNo further.')).toEqual(['Bram: Halt!\nNo further.']);
	});

	it('bounds the name and the expression', () => {
		const name = 'N'.repeat(MAX_SPEAKER_CHARS);
		const expr = 'e'.repeat(MAX_TAG_EXPRESSION_CHARS);
		expect(read(`@${name}(${expr}): hi`)).toEqual([`${name}(${expr}): hi`]);
		expect(read(`@${name}N: hi`)).toEqual(['~ hi']);
		expect(read(`@Bram(${expr}e): hi`)).toEqual(['~ hi']);
		// Code points, not UTF-16 units: 40 emoji are a valid name.
		expect(read(`@${'🙂'.repeat(MAX_SPEAKER_CHARS)}: hi`)).toEqual([`${'🙂'.repeat(MAX_SPEAKER_CHARS)}: hi`]);
	});

	it('treats an @ inside a line as text', () => {
		expect(read('Write to me@home: any time.')).toEqual(['~ Write to me@home: any time.']);
		expect(read('@Bram: mail me@home: soon')).toEqual(['Bram: mail me@home: soon']);
	});

	it('handles Windows newlines, 3+ blank lines, blank lines of spaces and outer whitespace', () => {
		const text = '\r\n\r\n  One.\r\n\r\n\r\n\r\n@Bram: Two.\r\n \t\u3000\r\nThree.\r\nstill three.  \n\n\n';
		expect(read(text)).toEqual(['~ One.', 'Bram: Two.', '~ Three.\nstill three.']);
		expect(parseScript('   \r\n\n  ', final)).toEqual([]);
		expect(parseScript('', streaming)).toEqual([]);
	});

	it('countParagraphs counts what cues may refer to', () => {
		expect(countParagraphs('a\n\n@B: b\n\n\n\nc')).toBe(3);
	});

	it('parseSpeakerTag reads a tag at the start only', () => {
		expect(parseSpeakerTag('@Bram(smile): hi')).toEqual({ speaker: 'Bram', expression: 'smile', length: 13, colon: ':' });
		expect(parseSpeakerTag(' @Bram: hi')).toBeNull();
		expect(parseSpeakerTag('@Bram hi')).toBeNull();
	});
});

describe('parseScript: malformed tags fall back to narration without raw tag text', () => {
	it.each([
		['@Bram(stern Halt.', 'Halt.'], // rule c: the run up to the first space
		['@: hi', 'hi'], // rule a: empty name
		['@(smile): hi', 'hi'],
		['@Bram(): hi', 'hi'], // empty expression is malformed, strictly
		['@Br@m: hi', 'hi'],
		['@Bram(smile) Halt.', 'Halt.'], // rule b: no colon, a closing parenthesis
		['@Bram Halt.', 'Halt.'],
		['@ブラム「止まれ」', '「止まれ」'], // rule c stops at a quote
		['@ブラム、止まれ。', '、止まれ。'],
		['@ Bram hi', 'Bram hi'],
		['@Bram\nHalt.', 'Halt.'], // a newline inside the tag
		['@Bram:', ''], // tag without text
		['@Bram:   \n  ', ''],
		['@: @Bram: hi', 'hi'], // stripping repeats
		['＠＠＠', '']
	])('%j → narration %j', (input, text) => {
		expect(parseScript(input, final)).toEqual([{ index: 0, kind: 'narration', text, partial: false }]);
	});

	it('strips a tag after a valid tag', () => {
		expect(read('@Bram: @Ana: hi')).toEqual(['Bram: hi']);
	});

	it('drops only the @ of an overlong word, so long text is not lost', () => {
		const word = 'x'.repeat(MALFORMED_TAG_WINDOW + 5);
		expect(read(`@${word} end`)).toEqual([`~ ${word} end`]);
	});

	it('looks for the colon only inside the window on the first line', () => {
		const far = `@Bram ${'word '.repeat(20)}later: on`;
		// Rule c applies: the colon is past the window, so only `@Bram` goes.
		expect(read(far)).toEqual([`~ ${'word '.repeat(20)}later: on`]);
	});

	it('strips a long run of @ tokens in linear time', () => {
		expect(read(`${'@'.repeat(50_000)} hi`)).toEqual(['~ hi']);
		expect(read(`${'@x '.repeat(20_000)}hi`)).toEqual(['~ hi']);
		expect(read('@'.repeat(50_000), streaming)).toEqual(['~ ']);
	});

	it('turns a tag on a continuation line into a plain name', () => {
		expect(read('Bram turns.\n@Ana(sad): Why?\n  ＠アナ：なぜ？\n@: gone')).toEqual(['~ Bram turns.\nAna: Why?\n  アナ：なぜ？\ngone']);
	});
});

describe('parseScript: streaming', () => {
	it('marks only an unterminated last paragraph partial', () => {
		expect(parseScript('One.\n\nTw', streaming).map((p) => p.partial)).toEqual([false, true]);
		expect(parseScript('One.\n\nTwo.\n\n', streaming).map((p) => p.partial)).toEqual([false, false]);
		expect(parseScript('One.\n\nTwo.\n', streaming).map((p) => p.partial)).toEqual([false, true]);
		expect(parseScript('One.\n\nTw', final).map((p) => p.partial)).toEqual([false, false]);
	});

	it('withholds a tag that is still being written', () => {
		for (const prefix of ['@', '@Bra', '@Bram', '@Bram(', '@Bram(sm', '@Bram(smile', '@Bram(smile)', '@Bram(smile) ', '＠ブラム（笑']) {
			expect(parseScript(`Intro.\n\n${prefix}`, streaming)[1], prefix).toEqual({ index: 1, kind: 'narration', text: '', partial: true });
		}
	});

	it('shows the speaker as soon as the tag is complete', () => {
		expect(parseScript('@Bram(smile):', streaming)).toEqual([
			{ index: 0, kind: 'dialogue', speaker: 'Bram', expression: 'smile', text: '', partial: true }
		]);
		expect(parseScript('@Bram: Ha', streaming)).toEqual([{ index: 0, kind: 'dialogue', speaker: 'Bram', text: 'Ha', partial: true }]);
	});

	it('withholds a malformed tag until its reading is settled', () => {
		// `@Br@m x` might still get a colon within the window; until then nothing shows.
		expect(read('@Br@m x', streaming)).toEqual(['~ ']);
		expect(read('@Br@m x\n', streaming)).toEqual(['~ x']);
		expect(read('@Br@m x: y', streaming)).toEqual(['~ y']);
	});

	it('withholds a tag forming on a continuation line', () => {
		expect(read('Bram turns.\n@An', streaming)).toEqual(['~ Bram turns.']);
		expect(read('Bram turns.\n@Ana: W', streaming)).toEqual(['~ Bram turns.\nAna: W']);
	});
});

// ---------------------------------------------------------------- properties

const TOKENS = [
	'@',
	'@',
	'＠',
	'Bram',
	'ブラム',
	'Old Bram',
	':',
	':',
	'：',
	'(',
	')',
	'（',
	'）',
	' ',
	' ',
	'\t',
	'\u3000',
	'\n',
	'\n',
	'\n\n',
	'\r\n',
	'\r',
	'smile',
	'Halt.',
	'「',
	'」',
	'、',
	'。',
	'x',
	'🙂',
	'e\u0301',
	'"',
	'a'.repeat(45)
];

function randomText(rng: Random, maxTokens = 40): string {
	let s = '';
	const n = rng.int(maxTokens);
	for (let i = 0; i < n; i++) s += rng.pick(TOKENS);
	return s;
}

/** A plausible reply: mostly well-formed paragraphs, some broken ones. */
function randomReply(rng: Random): string {
	const paragraphs: string[] = [];
	const n = 1 + rng.int(6);
	for (let i = 0; i < n; i++) {
		const r = rng.int(4);
		if (r === 0) {
			const speaker = `${rng.pick(['@', '＠'])}${rng.pick(['Bram', 'ブラム', 'Ana'])}`;
			const face = rng.chance(0.5) ? `(${rng.pick(['smile', '笑顔'])})` : '';
			paragraphs.push(`${speaker}${face}${rng.pick([':', '：'])} ${randomText(rng, 8).replace(/\n/g, ' ')}Said.`);
		} else if (r === 1) paragraphs.push(`The night ${randomText(rng, 6).replace(/\n/g, ' ')}falls.`);
		else paragraphs.push(randomText(rng, 14));
	}
	return paragraphs.join(rng.pick(['\n\n', '\r\n\r\n', '\n\n\n\n', '\n \n']));
}

function assertNoRawTags(ps: Paragraph[], input: string): void {
	ps.forEach((p, i) => {
		expect(p.index, input).toBe(i);
		for (const line of p.text.split('\n'))
			expect(/^\s*[@＠]/.test(line), `${JSON.stringify(input)} → ${JSON.stringify(p.text)}`).toBe(false);
		expect(p.text, input).toBe(p.text.trim());
	});
}

describe('parseScript: properties', () => {
	it('never throws and never shows a line that starts with an @ token (random strings)', () => {
		const rng = seeded(20240604);
		for (let i = 0; i < 3000; i++) {
			const text = randomText(rng);
			for (const options of [final, streaming]) assertNoRawTags(parseScript(text, options), text);
		}
	});

	it('reads \\r\\n like \\n', () => {
		const rng = seeded(7);
		for (let i = 0; i < 500; i++) {
			const text = randomReply(rng).replace(/\r\n?/g, '\n');
			expect(parseScript(text.replace(/\n/g, '\r\n'), final)).toEqual(parseScript(text, final));
		}
	});

	it('a streamed prefix agrees with the final reply: complete paragraphs equal, the partial one grows', () => {
		const rng = seeded(99);
		for (let i = 0; i < 300; i++) {
			const full = randomReply(rng);
			const done = parseScript(full, final);
			for (let cut = 0; cut <= full.length; cut += 1 + rng.int(3)) {
				const prefix = full.slice(0, cut);
				const now = parseScript(prefix, streaming);
				assertNoRawTags(now, prefix);
				expect(now.length, prefix).toBeLessThanOrEqual(done.length);
				now.forEach((p, k) => {
					const end = done[k];
					if (!end) throw new Error(`paragraph ${k} of ${JSON.stringify(prefix)} is missing from the final parse`);
					if (!p.partial) return expect(p, prefix).toEqual(end);
					expect(end.text.startsWith(p.text), `${JSON.stringify(prefix)}: ${JSON.stringify(p.text)} → ${JSON.stringify(end.text)}`).toBe(
						true
					);
					if (p.kind === 'dialogue') {
						if (end.kind === 'dialogue') expect([end.speaker, end.expression]).toEqual([p.speaker, p.expression]);
						else expect(end.text).toBe('');
					} else if (p.text !== '') {
						expect(end.kind, prefix).toBe('narration');
					}
				});
			}
		}
	});
});

/**
 * The GM's reply as the ADV screen reads it: paragraphs of narration and dialogue.
 *
 * The reply format is set by the GM rules (`$lib/server/turn/mission.ts`, "How to write the reply").
 * This module is the one strict reading of it, shared by the stage, the backlog and anything on the
 * server that wants to count paragraphs the way the screen does.
 *
 * ## Grammar
 *
 * Before anything else `\r\n` and lone `\r` become `\n`.
 *
 *     reply      = ws* paragraph ( break paragraph )* ws*
 *     break      = "\n" hspace* "\n" ws*        a blank line (spaces, tabs, U+3000 allowed on it);
 *                                              any number of further blank lines belong to the break
 *     paragraph  = tagged | narration
 *     tagged     = at name [ open expression close ] hspace* colon ws* text
 *     at         = "@" | "＠"
 *     colon      = ":" | "："
 *     open       = "(" | "（"       close = ")" | "）"    (the two widths may be mixed)
 *     name       = 1–40 code points after trimming; none of  @ ＠ : ： ( ) （ ） or a newline
 *     expression = 1–30 code points after trimming; the same characters excluded
 *     text       = at least one non-space character (it may start on the next line)
 *     narration  = any other paragraph
 *
 * Paragraph numbers are positions in this split, from 0, and are what `adv_stage` cues refer to. A
 * paragraph is never dropped or merged, so numbers stay aligned with the GM's count.
 *
 * ## Malformed tags (never shown raw)
 *
 * A paragraph that starts with `@`/`＠` but is not a valid `tagged` paragraph becomes narration, with
 * its leading tag token removed by the first rule that applies, looking only at the first line and
 * at most MALFORMED_TAG_WINDOW code points from the `@`:
 *   a. a colon in that window: drop through the first colon     `@: hi` → `hi`, `@Br@m: hi` → `hi`
 *   b. else a closing parenthesis: drop through the first one     `@Bram(stern) Halt.` → `Halt.`
 *   c. else drop the `@` and the run of characters after it up to the first space, `@`, quote or
 *      CJK punctuation (「『“"‘'、。！？), if the `@` and that run fit in the window; else only the `@`
 *                                                                 `@Bram(stern Halt.` → `Halt.`
 * If what remains starts with `@` again, the rules repeat, so text never begins with an `@` token.
 * The same holds for the text after a valid tag (`@Bram: @Ana: hi` → Bram says `hi`).
 * A valid tag whose text is empty (`@Bram:` alone) is malformed: narration with empty text.
 *
 * An `@` inside a line is plain text (`mail me@home`). A line inside a paragraph that starts with a
 * tag breaks the one-speaker-per-paragraph rule; it stays in the paragraph with the tag turned into a
 * plain name (`@Ana(sad): Why?` → `Ana: Why?`), or stripped by the rules above if malformed.
 *
 * ## Streaming
 *
 * With `final: false` the text is a prefix of a reply still being written. Every paragraph followed
 * by a break is complete and reads exactly as it will in the final parse. The last paragraph, if no
 * break follows it yet, is `partial: true`; its text only grows as more arrives (it is a prefix of
 * its final text), except that a tag whose text never came turns into empty narration at the end.
 * Where an `@` token could still become a tag, or its malformed form is not settled yet (no newline
 * and fewer than MALFORMED_TAG_WINDOW code points), it is withheld: `@Bra` reads as empty narration,
 * `@Bram: Hal` as Bram saying `Hal`.
 */

export const MAX_SPEAKER_CHARS = 40;
export const MAX_TAG_EXPRESSION_CHARS = 30;
/** How far past the `@` a malformed tag is looked for: a full tag (@ + name + (expression)) and some spaces. */
export const MALFORMED_TAG_WINDOW = 80;

interface ParagraphBase {
	/** 0-based position in the reply; the number `adv_stage` cues use. */
	index: number;
	/** What the screen shows: no tag, trimmed. May be empty. */
	text: string;
	/** The reply is still streaming and this paragraph may grow. */
	partial: boolean;
}
interface NarrationParagraph extends ParagraphBase {
	kind: 'narration';
}
interface DialogueParagraph extends ParagraphBase {
	kind: 'dialogue';
	speaker: string;
	expression?: string;
}
export type Paragraph = NarrationParagraph | DialogueParagraph;

export interface ParseOptions {
	/** false while the reply streams: the last paragraph may be incomplete. */
	final: boolean;
}

export interface SpeakerTag {
	speaker: string;
	expression?: string;
	/** Length of the tag in UTF-16 units, through the colon. */
	length: number;
	/** Which colon the GM wrote, so an inline tag keeps its style. */
	colon: ':' | '：';
}

const BREAK = /\n[^\S\n]*\n\s*/;
const ENDS_WITH_BREAK = /\n[^\S\n]*\n\s*$/;
const AT = /^[@＠]/;
const TAG = /^[@＠]([^@＠:：()（）\n]*)(?:[(（]([^@＠:：()（）\n]*)[)）])?[^\S\n]*([:：])/;
/** A string that could still grow into a TAG: nothing in it contradicts the grammar yet. */
const TAG_PREFIX = /^[@＠]([^@＠:：()（）\n]*)(?:[(（]([^@＠:：()（）\n]*)([)）][^\S\n]*)?)?$/;
const COLON = /[:：]/;
const CLOSE = /[)）]/;
/**
 * Rule c: where a bare `@word` ends. Bounded one past the window (so a long word is detected without
 * scanning it all); a following `@` ends the run, so `@@@…` strips one at a time in linear time.
 */
const AT_RUN = new RegExp(`^[@＠][^\\s@＠「『“"‘'、。！？]{0,${MALFORMED_TAG_WINDOW}}`, 'u');

function codePoints(s: string): number {
	let n = 0;
	for (const _ of s) n++;
	return n;
}

/** The first `n` code points of `s`, as a prefix string (so indexes in it are indexes in `s`). */
function headCodePoints(s: string, n: number): string {
	let out = '';
	let count = 0;
	for (const ch of s) {
		if (count === n) break;
		out += ch;
		count++;
	}
	return out;
}

function within(s: string, min: number, max: number): boolean {
	const n = codePoints(s);
	return n >= min && n <= max;
}

/** A valid speaker tag at the very start of `s` (no leading spaces), or null. */
export function parseSpeakerTag(s: string): SpeakerTag | null {
	const m = TAG.exec(s);
	if (!m) return null;
	const speaker = (m[1] ?? '').trim();
	if (!within(speaker, 1, MAX_SPEAKER_CHARS)) return null;
	const colon = m[3] === '：' ? '：' : ':';
	if (m[2] === undefined) return { speaker, length: m[0].length, colon };
	const expression = m[2].trim();
	if (!within(expression, 1, MAX_TAG_EXPRESSION_CHARS)) return null;
	return { speaker, expression, length: m[0].length, colon };
}

/** `s` (starting with `@`) could still become a valid tag if more text arrives. */
function couldBecomeTag(s: string): boolean {
	const m = TAG_PREFIX.exec(s);
	if (!m) return false;
	const name = (m[1] ?? '').trim();
	if (codePoints(name) > MAX_SPEAKER_CHARS) return false;
	if (m[2] === undefined) return true;
	if (name === '') return false;
	const expression = m[2].trim();
	if (codePoints(expression) > MAX_TAG_EXPRESSION_CHARS) return false;
	return m[3] === undefined || expression !== '';
}

/**
 * Where a malformed tag is looked for: the first MALFORMED_TAG_WINDOW code points, up to the first
 * newline. Bounded, so stripping a long run of `@` tokens stays linear.
 */
function tagWindow(s: string): string {
	const head = headCodePoints(s, MALFORMED_TAG_WINDOW);
	const nl = head.indexOf('\n');
	return nl < 0 ? head : head.slice(0, nl);
}

/** Whether more text could change how the leading `@` token of `s` is read. */
function unsettled(s: string): boolean {
	if (couldBecomeTag(s)) return true;
	if (parseSpeakerTag(s)) return false;
	if (COLON.test(tagWindow(s))) return false;
	// Settled once the first line has ended or the window is full; otherwise `s` ends inside it.
	const head = headCodePoints(s, MALFORMED_TAG_WINDOW + 1);
	return !head.includes('\n') && codePoints(head) <= MALFORMED_TAG_WINDOW;
}

/** Removes one leading `@` token (valid tag or malformed, rules a–c). `s` starts with `@`. */
function dropTagToken(s: string): string {
	const tag = parseSpeakerTag(s);
	if (tag) return s.slice(tag.length);
	const window = tagWindow(s);
	const colon = window.search(COLON);
	if (colon >= 0) return s.slice(colon + 1);
	const close = window.search(CLOSE);
	if (close >= 0) return s.slice(close + 1);
	const run = AT_RUN.exec(s)?.[0] ?? s.slice(0, 1);
	// The run includes the `@`, so it fits when it has at most WINDOW code points.
	return codePoints(run) <= MALFORMED_TAG_WINDOW ? s.slice(run.length) : s.slice(1);
}

/**
 * `s` with every leading `@` token removed. `null` when the tokens are not settled yet (streaming):
 * the caller shows nothing rather than raw tag text.
 */
function dropLeadingTags(s: string, open: boolean): string | null {
	let rest = s.trimStart();
	while (AT.test(rest)) {
		if (open && unsettled(rest)) return null;
		rest = dropTagToken(rest).trimStart();
	}
	return rest;
}

/** A continuation line that starts with a tag: the tag becomes a plain name, or goes if malformed. */
function inlineLine(line: string, open: boolean): string | null {
	const lead = line.length - line.trimStart().length;
	const body = line.slice(lead);
	if (!AT.test(body)) return line;
	if (open && unsettled(body)) return null;
	const tag = parseSpeakerTag(body);
	if (tag) {
		const said = dropLeadingTags(body.slice(tag.length), open);
		if (said === null) return null;
		return `${line.slice(0, lead)}${tag.speaker}${tag.colon}${tag.colon === ':' ? ' ' : ''}${said}`;
	}
	const rest = dropLeadingTags(body, open);
	return rest === null ? null : line.slice(0, lead) + rest;
}

/** The shown text of a paragraph body: leading `@` tokens removed, continuation-line tags inlined. */
function cleanBody(body: string, open: boolean): string {
	const rest = dropLeadingTags(body, open);
	if (rest === null) return '';
	const lines = rest.split('\n');
	const out: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] ?? '';
		// Only the last line of an open paragraph can still be growing.
		const shown = i === 0 ? line : inlineLine(line, open && i === lines.length - 1);
		if (shown === null) break;
		if (i > 0 && shown.trim() === '' && line.trim() !== '') continue;
		out.push(shown);
	}
	return out.join('\n').trim();
}

function parseParagraph(chunk: string, index: number, partial: boolean): Paragraph {
	// An open paragraph keeps its trailing newline: it settles how a malformed tag reads.
	const body = partial ? chunk.trimStart() : chunk.trim();
	if (AT.test(body)) {
		const tag = parseSpeakerTag(body);
		if (tag) {
			const text = cleanBody(body.slice(tag.length), partial);
			if (text !== '' || partial) {
				return {
					index,
					kind: 'dialogue',
					speaker: tag.speaker,
					...(tag.expression !== undefined ? { expression: tag.expression } : {}),
					text,
					partial
				};
			}
		}
	}
	return { index, kind: 'narration', text: cleanBody(body, partial), partial };
}

/** Splits a reply (or, with `final: false`, the part of it streamed so far) into paragraphs. Never throws. */
export function parseScript(text: string, options: ParseOptions = { final: true }): Paragraph[] {
	const body = text.replace(/\r\n?/g, '\n').trimStart();
	if (body === '') return [];
	const chunks = body.split(BREAK).filter((c) => c.trim() !== '');
	const lastOpen = !options.final && !ENDS_WITH_BREAK.test(body);
	return chunks.map((chunk, i) => parseParagraph(chunk, i, lastOpen && i === chunks.length - 1));
}

/** The number of paragraphs of a complete reply: the range `adv_stage` cue numbers should fall in. */
export function countParagraphs(text: string): number {
	return parseScript(text, { final: true }).length;
}

/**
 * Text folded for matching canon terms: case, width (全角/半角), Latin accents, katakana/hiragana and
 * runs of white space set aside, so "ＴＶ", "tv" and "TV", or "ラジオ", "ﾗｼﾞｵ" and "らじお", read the
 * same. Each folded code unit remembers where it came from in the original, so a stream checked on
 * the folded text can be released up to a point of the original.
 *
 * Folding goes one code point at a time (NFKD, which decomposes each character on its own), so the
 * folded text of a stream is the same however it was cut into deltas.
 */

const KATAKANA_FIRST = 0x30a1;
const KATAKANA_LAST = 0x30f6;
const KATAKANA_TO_HIRAGANA = 0x60;
/** Combining accents of Latin script: "café" matches "cafe". Kana voicing marks (U+3099, U+309A) stay: が is not か. */
const LATIN_ACCENTS = /[\u0300-\u036f]/g;
const SPACE = /\s/;

/** One code point, folded (possibly to nothing, or to several units). */
export function foldChar(ch: string): string {
	const code = ch.charCodeAt(0);
	if (code < 0x80) return SPACE.test(ch) ? ' ' : ch.toLowerCase();
	if (SPACE.test(ch)) return ' ';
	const decomposed = ch.normalize('NFKD').toLowerCase().replace(LATIN_ACCENTS, '');
	let out = '';
	for (const unit of decomposed) {
		const c = unit.codePointAt(0) ?? 0;
		out += c >= KATAKANA_FIRST && c <= KATAKANA_LAST ? String.fromCodePoint(c - KATAKANA_TO_HIRAGANA) : unit;
	}
	return out;
}

/** A text folded as it grows: `text` is the folded form, `origin[i]` the original index unit `i` came from. */
export class FoldedText {
	text = '';
	readonly origin: number[] = [];
	/** Length of the original text folded so far. */
	rawLength = 0;

	append(raw: string): void {
		let i = 0;
		for (const ch of raw) {
			const folded = foldChar(ch);
			for (const unit of folded) {
				// White space collapses to one space: "jet  aircraft" and "jet\naircraft" read as "jet aircraft".
				if (unit === ' ' && this.text.endsWith(' ')) continue;
				this.text += unit;
				for (let k = 0; k < unit.length; k++) this.origin.push(this.rawLength + i);
			}
			i += ch.length;
		}
		this.rawLength += raw.length;
	}

	/** The original index where folded unit `index` starts (the original's length past the end). */
	rawIndexOf(index: number): number {
		return index >= this.text.length ? this.rawLength : (this.origin[index] ?? this.rawLength);
	}
}

/** A whole string folded (the terms themselves, or a text checked at once). */
export function fold(text: string): string {
	const folded = new FoldedText();
	folded.append(text);
	return folded.text.trim();
}

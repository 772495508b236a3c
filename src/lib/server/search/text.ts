/**
 * Text analysis shared by the keyword side and the offline embedder: normalisation, splitting into
 * tokens and script runs (Japanese has no spaces, so a change of script is the cheapest word boundary
 * there is), stop words and a light English stemmer.
 */

/** Normalises for matching: NFKC folds full-width ASCII and half-width kana, then lower case. */
export function normalise(text: string): string {
	return text.normalize('NFKC').toLowerCase();
}

/** Maximal runs of letters, digits and combining marks; everything else separates tokens. */
export function tokens(normalised: string): string[] {
	return normalised.split(/[^\p{L}\p{N}\p{M}]+/u).filter((t) => t.length > 0);
}

type Script = 'han' | 'katakana' | 'hiragana' | 'latin';

const HAN = /[\p{Script=Han}々〆ヶ]/u;
const KATAKANA = /[\p{Script=Katakana}ー]/u;
const HIRAGANA = /\p{Script=Hiragana}/u;

function scriptOf(ch: string): Script {
	if (HAN.test(ch)) return 'han';
	if (KATAKANA.test(ch)) return 'katakana';
	if (HIRAGANA.test(ch)) return 'hiragana';
	return 'latin';
}

export interface ScriptRun {
	text: string;
	script: Script;
}

/** Splits a token where the script changes: 北門の衛兵ブラム → 北門 / の / 衛兵 / ブラム. */
export function scriptRuns(token: string): ScriptRun[] {
	const runs: ScriptRun[] = [];
	for (const ch of token) {
		const script = scriptOf(ch);
		const last = runs.at(-1);
		if (last && last.script === script) last.text += ch;
		else runs.push({ text: ch, script });
	}
	return runs;
}

export function isCjk(token: string): boolean {
	return scriptRuns(token).some((r) => r.script !== 'latin');
}

/** English function words: they match everything and mean nothing to recall. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
	(
		'a about above after again against all am an and any are as at be because been before being below between both but by ' +
		'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
		'himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or ' +
		'other our ours ourselves out over own same she should so some such than that the their theirs them themselves then ' +
		'there these they this those through to too under until up very was we were what when where which while who whom why ' +
		'will with would you your yours yourself yourselves tell know find show give get got is are s t d ll re ve m'
	).split(' ')
);

/** Japanese question and function words written in hiragana alone. */
export const JAPANESE_STOP_WORDS: ReadonlySet<string> = new Set(
	'これ それ あれ この その あの どこ どれ どの なに なん だれ いつ どう です ます でした ました ある いる する こと もの ため から まで より について とは って'.split(
		' '
	)
);

/**
 * A light suffix-stripping stemmer (not Porter): enough to bring plural, past and -ing forms
 * together; character n-grams catch what it misses.
 */
export function stem(word: string): string {
	let w = word;
	if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
	else if (w.length > 4 && w.endsWith('sses')) w = w.slice(0, -2);
	else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
	if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
	else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
	else if (w.length > 4 && w.endsWith('ly')) w = w.slice(0, -2);
	if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
	return w;
}

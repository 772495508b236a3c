/**
 * The macros card text carries (the specs' "curly braced syntax" and the older tags), resolved as
 * Kantera's GM reads a world: `{{char}}` / `<BOT>` become the character's name; `{{user}}` /
 * `<USER>` become "you" in what the player reads and "the player character" in what only the GM
 * reads; `{{random:a,b}}` / `{{pick:…}}` become the first choice for the player (a fixed text reads
 * the same every time) and "one of: a / b" for the GM, who can vary it; `{{roll:d6}}` becomes "a
 * d6 roll" for the GM; comments (`{{// …}}`, `{{comment: …}}`, `{{hidden_key: …}}`) and
 * `{{original}}`, `{{trim}}` are dropped. Any other macro is left as it is.
 */
import type { Language } from '../../../types/settings';

export type Audience = 'player' | 'gm';

export interface MacroContext {
	readonly char: string;
	readonly language: Language;
}

const USER = {
	player: { en: 'you', ja: 'あなた' },
	gm: { en: 'the player character', ja: 'プレイヤーキャラクター' }
} as const;
const ONE_OF = { en: 'one of', ja: 'いずれか' } as const;
const ROLL = { en: (die: string) => `a ${die} roll`, ja: (die: string) => `${die}の出目` } as const;

const DROPPED = /\{\{\s*(?:\/\/[\s\S]*?|comment\s*:[\s\S]*?|hidden_key\s*:[\s\S]*?|original|trim)\s*\}\}/gi;
const CHOICE = /\{\{\s*(?:random|pick)\s*:{1,2}([\s\S]*?)\}\}/gi;
const ROLL_MACRO = /\{\{\s*roll\s*:\s*(d?\d+)\s*\}\}/gi;
const CHAR = /\{\{\s*char\s*\}\}|<\s*(?:bot|char)\s*>/gi;
const USER_MACRO = /\{\{\s*user\s*\}\}|<\s*user\s*>/gi;
/** Where a word starts a sentence (so "you" is written "You"). */
const SENTENCE_START = /(^|[.!?。！？"“”*\n]\s*)$/;

/** English verbs written for a third person (`{{user}} is`) that read wrong after "you". */
const YOU_VERB = /\b([Yy]ou) (is|was|has|does)\b/g;
const YOU_VERBS: Record<string, string> = { is: 'are', was: 'were', has: 'have', does: 'do' };
const YOU_POSSESSIVE = /\b([Yy]ou)['’]s\b/g;
/**
 * Any other third-person verb after "you" as the subject (at a sentence start or after a word that opens
 * a clause): "{{user}} washes up" → "You wash up", "carries" → "carry", "walks" → "walk". Words ending
 * in -ss, -us or -is are not plurals of anything and are left alone.
 */
const CLAUSE_START = String.raw`(^|[.!?,;:"“”*\n]\s*|\b(?:and|but|when|where|while|as|then|if|because|until|before|after|so|who|that)\s+)`;
const YOU_SUBJECT_VERB = new RegExp(`${CLAUSE_START}([Yy]ou) ([a-z]+?)(ies|(?:ch|sh|ss|x|z|o)es|[^su'’]s)\\b`, 'gim');

function singularVerb(stem: string, ending: string): string {
	if (ending === 'ies') return `${stem}y`;
	if (ending.endsWith('es') && ending.length > 2) return stem + ending.slice(0, -2);
	return stem + ending.slice(0, -1);
}

/** `a,b\,c` or `a::b` → ['a', 'b,c']. */
function choicesOf(list: string): string[] {
	const parts = list.includes('::') ? list.split('::') : list.split(/(?<!\\),/);
	return parts.map((p) => p.replace(/\\,/g, ',').trim()).filter((p) => p !== '');
}

function capitalised(word: string, before: string): string {
	return SENTENCE_START.test(before) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** The text with its macros resolved for `audience`; line endings as `\n`. */
export function resolveMacros(text: string, audience: Audience, ctx: MacroContext): string {
	const user = USER[audience][ctx.language];
	const resolved = text
		.replace(/\r\n?/g, '\n')
		.replace(DROPPED, '')
		.replace(CHOICE, (_, list: string) => {
			const choices = choicesOf(list);
			if (audience === 'player' || choices.length < 2) return choices[0] ?? '';
			return `(${ONE_OF[ctx.language]}: ${choices.join(' / ')})`;
		})
		.replace(ROLL_MACRO, (_, die: string) => {
			const d = die.toLowerCase().startsWith('d') ? die.toLowerCase() : `d${die}`;
			return audience === 'gm' ? `(${ROLL[ctx.language](d)})` : d;
		})
		.replace(CHAR, ctx.char)
		.replace(USER_MACRO, (_match, offset: number, whole: string) => capitalised(user, whole.slice(Math.max(0, offset - 3), offset)));
	if (audience !== 'player' || ctx.language !== 'en') return resolved;
	// Cards write the user in the third person ("{{user}} is lost"): read as "you", the verb follows.
	return resolved
		.replace(YOU_VERB, (_m, you: string, verb: string) => `${you} ${YOU_VERBS[verb] ?? verb}`)
		.replace(
			YOU_SUBJECT_VERB,
			(_m, before: string, you: string, stem: string, ending: string) => `${before}${you} ${singularVerb(stem, ending)}`
		)
		.replace(YOU_POSSESSIVE, (_m, you: string) => `${you}r`);
}

/** Whether a text holds any macro this module resolves (the report says so). */
export function hasMacros(text: string): boolean {
	return [DROPPED, CHOICE, ROLL_MACRO, CHAR, USER_MACRO].some((re) => {
		re.lastIndex = 0;
		const found = re.test(text);
		re.lastIndex = 0;
		return found;
	});
}

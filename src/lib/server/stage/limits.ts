/** Size limits of what the GM registers for the screen. Names show on the stage; looks feed image prompts. */
import { StageError } from './errors';
import { MAX_SPEAKER_CHARS } from '../../adv';

/** A character or place name: short enough for a name plate. */
export const MAX_STAGE_NAME_CHARS = 100;
/**
 * A character's name is also the speaker tag of their dialogue (`@Name: …`, see $lib/adv/script.ts),
 * so it must fit the tag grammar: the parser's length, and none of the tag's own punctuation.
 */
export const MAX_CHARACTER_NAME_CHARS = MAX_SPEAKER_CHARS;
const TAG_PUNCTUATION = /[@＠:：()（）]/;

export function checkCharacterName(name: string, what: string): string {
	const trimmed = checkStageName(name, what);
	if ([...trimmed].length > MAX_CHARACTER_NAME_CHARS)
		throw new StageError(
			'invalid_input',
			`${what} is longer than ${MAX_CHARACTER_NAME_CHARS} characters; it is also the speaker tag of their lines, so use a shorter name.`
		);
	if (TAG_PUNCTUATION.test(trimmed))
		throw new StageError('invalid_input', `${what} may not contain @ : ( ) — it is used in the speaker tag "@Name: …".`);
	return trimmed;
}

/** A visual description: a paragraph, enough for an image prompt and no more. */
export const MAX_LOOK_CHARS = 1000;

export function checkStageName(name: string, what: string): string {
	const trimmed = name.trim();
	if (trimmed === '') throw new StageError('invalid_input', `${what} is empty; give it a name.`);
	if (trimmed.length > MAX_STAGE_NAME_CHARS)
		throw new StageError('invalid_input', `${what} is longer than ${MAX_STAGE_NAME_CHARS} characters; use a shorter name.`);
	if (/[\r\n]/.test(trimmed)) throw new StageError('invalid_input', `${what} must be a single line.`);
	return trimmed;
}

/** Whitespace runs collapse to one space: a look is one paragraph, and `a  b` vs `a b` is no change. */
export function checkLook(text: string, what: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat === '') throw new StageError('invalid_input', `${what} is empty; describe what can be seen.`);
	if (flat.length > MAX_LOOK_CHARS)
		throw new StageError('invalid_input', `${what} is longer than ${MAX_LOOK_CHARS} characters; keep to what can be seen.`);
	return flat;
}

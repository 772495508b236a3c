/**
 * What the GM is told about the canon, in the words of its instructions (English, like the mission):
 * why a reply was withdrawn and how to write it again, why a tool call was refused, and that the
 * player named something this world does not have. A secret is named by its key and the marker that
 * fired, never by its text.
 */
import type { CanonHit, CanonTerm } from '../../canon';

/** Why a term may not be written, for the GM. */
function reason(term: CanonTerm, wrote: string): string {
	if (term.kind === 'secret')
		return `it wrote "${wrote}", which gives away the secret "${term.source}" that the player has not learned yet`;
	return `it wrote "${wrote}", and that does not exist in this world${term.note ? ` (${term.note.replace(/\.$/, '')})` : ''}`;
}

/** How to go on after the rewrite, by kind. */
function instead(term: CanonTerm): string {
	if (term.kind === 'secret')
		return (
			'Write it in the world without those words or anything else that reveals that secret. If the story has ' +
			`truly reached the moment the player learns it, first reveal it with story_advance (action "reveal", key "${term.source}"), then narrate it.`
		);
	return 'Write it in the world without it: the characters do not know such a thing.';
}

/** The message that asks the GM, once, to write a withdrawn reply again. */
export function rewriteNote(hit: CanonHit, wrote: string): string {
	return `[Kantera] Your reply was withdrawn before the player saw it: ${reason(hit.term, wrote)}. Write your reply again from its start. ${instead(hit.term)}`;
}

/** The error a refused tool call returns: nothing of it was done or shown. */
export function toolRefusal(tool: string, where: string, hit: CanonHit, wrote: string): string {
	return `${tool}: not done, nothing was shown: ${where} ${reason(hit.term, wrote).replace(/^it wrote/, 'has')}. Call it again without it. ${instead(hit.term)}`;
}

/** The turn's context note when the player's own line names things this world does not have, or none. */
export function playerNote(named: readonly CanonTerm[]): string | undefined {
	if (named.length === 0) return undefined;
	const things = named.map((t) => `"${t.text}"${t.note ? ` (${t.note.replace(/\.$/, '')})` : ''}`).join(', ');
	return (
		`## Canon note for this turn\nThe player's line names ${things}: this does not exist in this world. Answer in the world: ` +
		'the characters do not know the thing or the word, and the story goes on. Do not refuse, do not explain that it does not belong, ' +
		'and never describe it as if it existed.'
	);
}

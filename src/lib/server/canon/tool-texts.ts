/**
 * The words of a tool call the player will see: names and looks on the stage (a look is the image
 * prompt), stage directions and choices, the journal and the state. Read from the call's raw arguments
 * before the tool runs, every string (and key) of them: a call that would show a term is refused and
 * nothing of it happens. Tools whose results stay with the GM (recall, the story DB, notes) are not read.
 */
import { parseArguments } from '../tools';

/** Where the player would see each tool's words, in the GM's terms (for its refusal). */
const VISIBLE_TOOLS: Readonly<Record<string, string>> = {
	adv_stage: 'a stage direction or choice',
	register_npc: "a character's name or look (the look becomes an image)",
	set_scene: "a place's name or look (the look becomes an image)",
	journal_append: 'the journal entry',
	update_state: 'the state'
};

/** Every string in a JSON value, keys included. */
function stringsOf(value: unknown, out: string[] = []): string[] {
	if (typeof value === 'string') out.push(value);
	else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
	else if (typeof value === 'object' && value !== null)
		for (const [key, inner] of Object.entries(value)) {
			out.push(key);
			stringsOf(inner, out);
		}
	return out;
}

/** The player-visible words of a call and where they would show, or none (a GM-only tool, arguments that are not JSON). */
export function visibleWords(call: { name: string; arguments: string }): { where: string; texts: string[] } | undefined {
	const where = VISIBLE_TOOLS[call.name];
	if (where === undefined) return undefined;
	const parsed = parseArguments(call.arguments);
	return parsed.ok ? { where, texts: stringsOf(parsed.value) } : undefined;
}

/** roll_dice: real randomness (a cryptographic RNG), never the model's idea of a random number. */
import * as v from 'valibot';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { DiceNotationError, rollDice } from '../dice';
import { ToolError } from '../run';
import { text } from './shared';

const MAX_NOTATION_CHARS = 100;
const MAX_REASON_CHARS = 200;

export const rollDiceTool = defineTool({
	name: 'roll_dice',
	description:
		'Roll dice with a true random generator. Use it for every check, attack, damage and chance the rules ' +
		'or the moment call for; never make up a roll. Returns the total and every die.',
	schema: v.object({
		notation: text(
			MAX_NOTATION_CHARS,
			'Dice notation: "d20", "2d6+3", "1d8+1d4-1", "4d6kh3" (keep highest 3), "2d20kl1" (keep lowest 1), "d%".'
		),
		reason: v.optional(text(MAX_REASON_CHARS, 'What the roll is for, e.g. "Mira climbs the wall (DC 12)". Echoed back.'))
	}),
	handler(args, ctx: ToolContext) {
		try {
			const roll = rollDice(args.notation, ctx.rng);
			return {
				...(args.reason === undefined ? {} : { reason: args.reason }),
				notation: roll.notation,
				total: roll.total,
				dice: roll.rolls,
				modifier: roll.modifier
			};
		} catch (err) {
			if (err instanceof DiceNotationError) throw new ToolError(err.message);
			throw err;
		}
	}
});

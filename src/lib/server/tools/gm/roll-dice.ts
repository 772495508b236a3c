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
	description: 'Roll dice (true random).',
	schema: v.object({
		notation: text(MAX_NOTATION_CHARS, 'e.g. "2d6+3", "4d6kh3" (keep highest)'),
		reason: v.optional(text(MAX_REASON_CHARS))
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

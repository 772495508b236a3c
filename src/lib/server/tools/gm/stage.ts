/**
 * register_npc / set_scene: put a character or a place on the ADV screen. Registration upserts the
 * row and, when the look is new or changed, places an image order in the turn's staged writes; the
 * image is generated only after the turn commits. Prompts are built from the visual fields alone.
 */
import * as v from 'valibot';
import {
	imageOrders,
	MAX_CHARACTER_NAME_CHARS,
	MAX_EXPRESSION_CHARS,
	MAX_LOOK_CHARS,
	MAX_STAGE_NAME_CHARS,
	npcs,
	npcSpritePrompt,
	placeKind,
	scenes,
	sceneBackgroundPrompt,
	type Npc
} from '../../stage';
import { parseSpriteVariant, spriteVariantName } from '../../../adv';
import type { SessionTx } from '../../db';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { ToolError } from '../run';
import { recorded, text } from './shared';

/**
 * Expression sprites a character may have besides the default one. Each is an image generated (and
 * paid for), so the set is small: the few faces a character shows most; others are drawn as the
 * default sprite with the expression named on it.
 */
const MAX_EXPRESSIONS_PER_NPC = 4;
const TAG_PUNCTUATION = /[@＠:：()（）\r\n]/u;

/** Orders the expression sprites a registration asks for, and re-orders known ones when the look changed. */
async function orderExpressions(
	tx: SessionTx,
	npc: Npc,
	asked: readonly string[],
	lookChanged: boolean
): Promise<{ ordered: string[]; skipped: string[] }> {
	const known = await imageOrders.variantNames(tx, npc.name);
	const knownExpressions = known.flatMap((name) => parseSpriteVariant(name)?.expression ?? []);
	const wanted = [...new Set(asked.map((e) => e.trim()).filter((e) => e !== ''))];
	const fresh = wanted.filter((e) => !knownExpressions.includes(e));
	const room = Math.max(0, MAX_EXPRESSIONS_PER_NPC - knownExpressions.length);
	const toOrder = [...(lookChanged ? knownExpressions : []), ...fresh.slice(0, room)];
	for (const expression of toOrder) {
		await imageOrders.place(tx, {
			target: 'npc',
			targetName: spriteVariantName(npc.name, expression),
			prompt: npcSpritePrompt(npc, expression)
		});
	}
	return { ordered: toOrder, skipped: fresh.slice(room) };
}

const regenerate = () => v.optional(v.boolean());

export const registerNpcTool = defineTool({
	name: 'register_npc',
	description: 'Put a character on screen, or change their look (orders a sprite).',
	schema: v.object({
		name: text(MAX_CHARACTER_NAME_CHARS, 'no @:()'),
		appearance: text(MAX_LOOK_CHARS),
		regenerate: regenerate(),
		expressions: v.optional(
			v.pipe(
				v.array(text(MAX_EXPRESSION_CHARS)),
				v.maxLength(MAX_EXPRESSIONS_PER_NPC),
				v.description(`extra sprite faces, ≤${MAX_EXPRESSIONS_PER_NPC} in all, e.g. "smile"`)
			)
		)
	}),
	async handler(args, ctx: ToolContext) {
		const expressions = args.expressions ?? [];
		if (expressions.some((e) => TAG_PUNCTUATION.test(e)))
			throw new ToolError(
				'an expression may not contain @ : ( ) or a line break — it is written inside the speaker tag "@Name(expression): …".'
			);
		return recorded(() =>
			ctx.write(async (tx) => {
				const { npc, change } = await npcs.register(tx, { name: args.name, appearance: args.appearance });
				const order = change !== 'unchanged' || args.regenerate === true;
				if (order) await imageOrders.place(tx, { target: 'npc', targetName: npc.name, prompt: npcSpritePrompt(npc) });
				const faces = await orderExpressions(tx, npc, expressions, change === 'updated');
				return {
					npc: npc.name,
					registration: change,
					sprite: order
						? 'ordered (generated after this turn)'
						: npc.spriteImage
							? 'kept'
							: 'not generated yet (use regenerate to order it again)',
					...(faces.ordered.length > 0 ? { expression_sprites_ordered: faces.ordered } : {}),
					...(faces.skipped.length > 0
						? {
								expressions_not_ordered: `${faces.skipped.join(', ')}: a character \
has at most ${MAX_EXPRESSIONS_PER_NPC} \
expression sprites; these show the default sprite, marked`
							}
						: {})
				};
			})
		);
	}
});

export const setSceneTool = defineTool({
	name: 'set_scene',
	description: 'Register a place for adv_stage backgrounds, or change its look (orders an image).',
	schema: v.object({
		name: text(MAX_STAGE_NAME_CHARS),
		description: text(MAX_LOOK_CHARS),
		regenerate: regenerate()
	}),
	async handler(args, ctx: ToolContext) {
		return recorded(async () => {
			const result = await ctx.write(async (tx) => {
				const { scene, change } = await scenes.register(tx, { name: args.name, description: args.description });
				const order = change !== 'unchanged' || args.regenerate === true;
				if (order) await imageOrders.place(tx, { target: 'scene', targetName: scene.name, prompt: sceneBackgroundPrompt(scene) });
				return {
					scene: scene.name,
					registration: change,
					background: order
						? 'ordered (generated after this turn)'
						: scene.backgroundImage
							? 'kept'
							: 'not generated yet (use regenerate to order it again)'
				};
			});
			// Staged: the screen draws the place while the reply streams, and forgets it if the turn fails.
			ctx.places.push({ name: result.scene, kind: placeKind(result.scene, args.description) });
			return result;
		});
	}
});

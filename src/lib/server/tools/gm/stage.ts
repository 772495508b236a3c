/**
 * register_npc / set_scene: put a character or a place on the ADV screen. Registration upserts the
 * row and, when the look is new or changed, places an image order in the turn's staged writes; the
 * image is generated only after the turn commits. Prompts are built from the visual fields alone.
 */
import * as v from 'valibot';
import { imageOrders, MAX_CHARACTER_NAME_CHARS, MAX_LOOK_CHARS, MAX_STAGE_NAME_CHARS, npcs, npcSpritePrompt, scenes, sceneBackgroundPrompt } from '../../stage';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { recorded, text } from './shared';

const regenerate = () =>
	v.optional(v.pipe(v.boolean(), v.description('Order a new image even though the look is unchanged (e.g. the last one came out wrong). Default false.')));

export const registerNpcTool = defineTool({
	name: 'register_npc',
	description:
		'Register a character who appears on screen, or update their look. A new or changed appearance orders a full-body sprite, generated after this turn. The appearance goes to an image generator: describe only what can be seen — never secrets, plans, relationships or anything from the story DB. Register before a character\'s first adv_stage "enter".',
	schema: v.object({
		name: text(MAX_CHARACTER_NAME_CHARS, 'The character\'s name as it is shown, used in adv_stage cues and in the speaker tag of their lines ("@Bram: …"), e.g. "Bram". No @ : ( ).'),
		appearance: text(
			MAX_LOOK_CHARS,
			'Visual only: apparent age, build, hair, eyes, face, clothes, colours, carried items, e.g. "tall man in his fifties, grey beard, dented steel breastplate over a blue tunic, halberd".'
		),
		regenerate: regenerate()
	}),
	async handler(args, ctx: ToolContext) {
		return recorded(() =>
			ctx.write(async (tx) => {
				const { npc, change } = await npcs.register(tx, { name: args.name, appearance: args.appearance });
				const order = change !== 'unchanged' || args.regenerate === true;
				if (order) await imageOrders.place(tx, { target: 'npc', targetName: npc.name, prompt: npcSpritePrompt(npc) });
				return { npc: npc.name, registration: change, sprite: order ? 'ordered (generated after this turn)' : npc.spriteImage ? 'kept' : 'not generated yet (use regenerate to order it again)' };
			})
		);
	}
});

export const setSceneTool = defineTool({
	name: 'set_scene',
	description:
		'Register a place (a scene) for the screen, or update its look. A new or changed description orders a background image, generated after this turn. To show it, add an adv_stage "background" cue with this scene name. Describe only what can be seen — never secrets or story.',
	schema: v.object({
		name: text(MAX_STAGE_NAME_CHARS, 'The scene name, used in adv_stage background cues, e.g. "North Gate at dusk".'),
		description: text(MAX_LOOK_CHARS, 'Visual only: the place, architecture, light, weather, time of day, mood, e.g. "massive stone gate, torches, light snow, dusk".'),
		regenerate: regenerate()
	}),
	async handler(args, ctx: ToolContext) {
		return recorded(() =>
			ctx.write(async (tx) => {
				const { scene, change } = await scenes.register(tx, { name: args.name, description: args.description });
				const order = change !== 'unchanged' || args.regenerate === true;
				if (order) await imageOrders.place(tx, { target: 'scene', targetName: scene.name, prompt: sceneBackgroundPrompt(scene) });
				return { scene: scene.name, registration: change, background: order ? 'ordered (generated after this turn)' : scene.backgroundImage ? 'kept' : 'not generated yet (use regenerate to order it again)' };
			})
		);
	}
});

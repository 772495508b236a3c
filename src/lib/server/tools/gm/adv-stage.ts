/**
 * adv_stage: the GM's stage directions for this reply. Cues are checked per action here and kept in
 * the turn's context; the turn streams them to the screen as they are staged (it plays them at their
 * paragraph while the reply streams, provisionally) and saves them with the GM's message, so a failed
 * turn keeps nothing. How many sprites fit is the screen's business. `choices` are what the player is
 * offered to say next, as a menu at the end of the reply.
 */
import * as v from 'valibot';
import { listSounds, MAX_CHARACTER_NAME_CHARS, MAX_EXPRESSION_CHARS, MAX_PARAGRAPH, MAX_STAGE_NAME_CHARS, npcs, scenes } from '../../stage';
import { KEEP_MUSIC, NO_MUSIC, SOUNDS, STAGE_ACTIONS, STAGE_SLOTS } from '../../../adv';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { int, quote, text } from './shared';
import { ToolError } from '../run';

/** One reply rarely needs more; a runaway list is a bug in the model's output. */
const MAX_CUES_PER_CALL = 24;
/** A visual-novel menu: a few clear options, each a short line in the player's voice. */
const MIN_CHOICES = 2;
const MAX_CHOICES = 4;
const MAX_CHOICE_CHARS = 160;

const paragraph = () => int(0, MAX_PARAGRAPH);
const character = () => text(MAX_CHARACTER_NAME_CHARS);
const slot = () => v.picklist(STAGE_SLOTS);
const expression = () => text(MAX_EXPRESSION_CHARS);
const scene = () => text(MAX_STAGE_NAME_CHARS);
/** rain…sea hold (none stops them), thunder…clash sound once: the enum says it, the GM rules need not. */
const sound = () => v.picklist(SOUNDS);
/** One of the preset's tracks, none or keep: the mission lists them and says so (only for a world with music), not every call's tools. */
const music = () => text(MAX_STAGE_NAME_CHARS);

const cueFlat = v.object({
	paragraph: paragraph(),
	action: v.pipe(
		v.picklist(STAGE_ACTIONS),
		v.description(
			'enter/move: character, slot; exit: character; expression: character, expression; background: scene; sound: sound; music: music'
		)
	),
	character: v.optional(character()),
	slot: v.optional(slot()),
	expression: v.optional(expression()),
	scene: v.optional(scene()),
	sound: v.optional(sound()),
	music: v.optional(music())
});

const cueExact = v.variant('action', [
	v.object(
		{ paragraph: paragraph(), action: v.literal('enter'), character: character(), slot: slot(), expression: v.optional(expression()) },
		'enter needs "character" and "slot"'
	),
	v.object({ paragraph: paragraph(), action: v.literal('exit'), character: character() }, 'exit needs "character"'),
	v.object(
		{ paragraph: paragraph(), action: v.literal('move'), character: character(), slot: slot() },
		'move needs "character" and "slot"'
	),
	v.object(
		{ paragraph: paragraph(), action: v.literal('expression'), character: character(), expression: expression() },
		'expression needs "character" and "expression"'
	),
	v.object({ paragraph: paragraph(), action: v.literal('background'), scene: scene() }, 'background needs "scene"'),
	v.object({ paragraph: paragraph(), action: v.literal('sound'), sound: sound() }, 'sound needs "sound"'),
	v.object({ paragraph: paragraph(), action: v.literal('music'), music: music() }, 'music needs "music"')
]);

/** The arguments. The tool's schema pipes them into a custom check, where the JSON Schema converter stops (see shared.ts). */
const advStageArgs = v.object({
	cues: v.optional(v.pipe(v.array(v.pipe(cueFlat, cueExact)), v.maxLength(MAX_CUES_PER_CALL))),
	choices: v.optional(
		v.pipe(
			v.array(text(MAX_CHOICE_CHARS)),
			v.minLength(MIN_CHOICES),
			v.maxLength(MAX_CHOICES),
			v.description(`${MIN_CHOICES}-${MAX_CHOICES} lines in the player's voice, a menu after the reply, at real decisions`)
		)
	)
});

type AdvStageArgs = v.InferOutput<typeof advStageArgs>;

export const advStageTool = defineTool({
	name: 'adv_stage',
	description: 'Stage cues for the reply you are about to write (call it first).',
	schema: v.pipe(
		advStageArgs,
		v.custom<AdvStageArgs>(
			(a) => v.is(advStageArgs, a) && ((a.cues?.length ?? 0) > 0 || a.choices !== undefined),
			'cues: give at least one cue (or offer choices)'
		)
	),
	async handler(args, ctx: ToolContext) {
		const choices = args.choices?.map((c) => c.replace(/\s+/g, ' ').trim()) ?? [];
		if (choices.some((c) => c === '')) throw new ToolError('a choice is blank; write each option as a short line.');
		const known = await ctx.read(async (exec) => ({
			characters: new Set((await npcs.list(exec)).map((n) => n.name.toLowerCase())),
			scenes: new Set((await scenes.list(exec)).map((s) => s.name.toLowerCase())),
			tracks: new Set((await listSounds(exec)).filter((s) => s.kind === 'music').map((s) => s.name.toLowerCase()))
		}));
		const notes = new Set<string>();
		const cues = args.cues ?? [];
		for (const cue of cues) {
			if ('character' in cue && !known.characters.has(cue.character.toLowerCase())) {
				notes.add(`character ${quote(cue.character)} is not registered: shown as a silhouette until register_npc gives them a sprite`);
			}
			if (cue.action === 'background' && !known.scenes.has(cue.scene.toLowerCase())) {
				notes.add(`scene ${quote(cue.scene)} is not set: shown as a plain backdrop until set_scene describes it`);
			}
			const track = cue.action === 'music' ? cue.music.trim().toLowerCase() : undefined;
			if (track !== undefined && track !== NO_MUSIC && track !== KEEP_MUSIC && !known.tracks.has(track)) {
				notes.add(`music ${quote(cue.action === 'music' ? cue.music : '')} is not a track of this world: silence plays; use a listed name`);
			}
		}
		ctx.cues.push(...cues);
		if (args.choices !== undefined) ctx.choices.splice(0, ctx.choices.length, ...choices);
		return {
			staged: cues.length,
			cues_this_turn: ctx.cues.length,
			...(ctx.choices.length > 0 ? { choices_offered: ctx.choices.length } : {}),
			...(notes.size > 0 ? { notes: [...notes] } : {})
		};
	}
});

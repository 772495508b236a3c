/**
 * The ADV stage cue: one valibot schema for the cue as the turn collects it, the stage stores it and
 * the screen (play page and backlog alike) reads it back. Browser-safe, so server and client share it.
 *
 * The schema is the shape the stage can play; it carries no length limits. The GM's `adv_stage`
 * tool holds what it accepts to tighter bounds (paragraph count, name lengths) before a cue is ever
 * stored, and a cue stored under older or looser bounds still plays wherever it is read.
 */
import * as v from 'valibot';

import { SOUNDS } from './sound';

export const STAGE_ACTIONS = ['enter', 'exit', 'move', 'expression', 'background', 'sound', 'music'] as const;

/** The three sprite positions, in screen order. */
export const STAGE_SLOTS = ['left', 'center', 'right'] as const;
export type StageSlot = (typeof STAGE_SLOTS)[number];

/** One stage direction, tied to the paragraph of a GM reply before which it plays. */
export const StageCueSchema = v.object({
	/** 0-based paragraph of the reply; the cue plays before that paragraph is shown. */
	paragraph: v.pipe(v.number(), v.integer(), v.minValue(0)),
	action: v.picklist(STAGE_ACTIONS),
	character: v.optional(v.string()),
	slot: v.optional(v.picklist(STAGE_SLOTS)),
	expression: v.optional(v.string()),
	scene: v.optional(v.string()),
	/** `sound`: an ambience from here on (`none` stops it), or an effect played once at this paragraph. */
	sound: v.optional(v.picklist(SOUNDS)),
	/** `music`: one of the preset's tracks from here on, `none` (silence) or `keep` (what plays goes on). */
	music: v.optional(v.string())
});
export type StageCue = v.InferOutput<typeof StageCueSchema>;

export function isStageSlot(value: unknown): value is StageSlot {
	return STAGE_SLOTS.some((slot) => slot === value);
}

/**
 * How names are compared on stage: the GM may write `bram` in a tag and `Bram` in a cue, or type
 * full-width letters (`Ｂｒａｍ`) in Japanese text. NFKC folds full-width forms, lowercase folds case.
 */
export function characterKey(name: string): string {
	return name.normalize('NFKC').trim().toLowerCase();
}

export function sameCharacter(a: string, b: string): boolean {
	return characterKey(a) === characterKey(b);
}

/**
 * The image name of a character's sprite in one expression: the speaker-tag form `Name(expression)`.
 * A registered character name may not contain parentheses (they belong to the tag), so the form can
 * never clash with a name, and the image jobs, their events and the stage's image list carry it as
 * an ordinary name.
 */
export function spriteVariantName(character: string, expression: string): string {
	return `${character.trim()}(${expression.trim()})`;
}

const VARIANT = /^([^()]+)\(([^()]+)\)$/u;

/** The character and expression of a sprite variant's image name; null for a plain name. */
export function parseSpriteVariant(name: string): { character: string; expression: string } | null {
	const m = VARIANT.exec(name.trim());
	const character = m?.[1]?.trim();
	const expression = m?.[2]?.trim();
	return character && expression ? { character, expression } : null;
}

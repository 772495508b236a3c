/**
 * Image prompts for sprites and backgrounds. A prompt is built from the visual fields the GM gave
 * register_npc / set_scene and a fixed style frame — nothing else. The functions take exactly those
 * fields and copy them out by name, so a caller holding a richer object (an NPC with notes, a scene
 * with plot) can't leak its other fields into a prompt, and nothing here can read the story DB.
 * Truths and spoilers must never reach an image service (seed 004).
 */

/** Longest prompt sent to an image service; image models read little more than this. */
export const MAX_PROMPT_CHARS = 1500;

export interface NpcLook {
	readonly name: string;
	/** Visual only: hair, face, clothes, build, colours. */
	readonly appearance: string;
}

export interface SceneLook {
	readonly name: string;
	/** Visual only: the place, light, weather, time of day. */
	readonly description: string;
}

const SPRITE_FRAME =
	'Full-body character sprite for a visual novel: one person standing, facing the viewer, whole figure ' +
	'in frame, transparent background, no text, no other people.';
const BACKGROUND_FRAME = 'Background art for a visual novel scene: wide 16:9 landscape, no people, no text.';

/** `expression` makes the sprite variant for that expression (a short visible word: smile, angry…). */
export function npcSpritePrompt(look: NpcLook, expression?: string): string {
	const { name, appearance } = look;
	const face = expression === undefined ? '' : ` Facial expression and pose: ${oneLine(expression)}.`;
	return cap(`${SPRITE_FRAME} Character: ${oneLine(name)}.${face} Appearance: ${oneLine(appearance)}`);
}

export function sceneBackgroundPrompt(look: SceneLook): string {
	const { name, description } = look;
	return cap(`${BACKGROUND_FRAME} Place: ${oneLine(name)}. ${oneLine(description)}`);
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

function cap(prompt: string): string {
	return prompt.length > MAX_PROMPT_CHARS ? prompt.slice(0, MAX_PROMPT_CHARS) : prompt;
}

/**
 * The browser's copy of the ADV stage cue. The server's `StageCue` (`$lib/server/stage/cues.ts`) is the
 * stored shape; this file re-declares it so browser code never imports server modules. A type test
 * (`tests/unit/adv/cue.test.ts`) keeps the two identical.
 */

export const STAGE_ACTIONS = ['enter', 'exit', 'move', 'expression', 'background'] as const;
export type StageAction = (typeof STAGE_ACTIONS)[number];

/** The three sprite positions, in screen order. */
export const STAGE_SLOTS = ['left', 'center', 'right'] as const;
export type StageSlot = (typeof STAGE_SLOTS)[number];

/** One stage direction, tied to the paragraph of a GM reply before which it plays. */
export interface StageCue {
	/** 0-based paragraph of the reply; the cue plays before that paragraph is shown. */
	paragraph: number;
	action: StageAction;
	character?: string | undefined;
	slot?: StageSlot | undefined;
	expression?: string | undefined;
	scene?: string | undefined;
}

export function isStageSlot(value: unknown): value is StageSlot {
	return typeof value === 'string' && (STAGE_SLOTS as readonly string[]).includes(value);
}

export function isStageAction(value: unknown): value is StageAction {
	return typeof value === 'string' && (STAGE_ACTIONS as readonly string[]).includes(value);
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

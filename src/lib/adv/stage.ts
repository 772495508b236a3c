/**
 * What the stage shows — a background and up to three standing characters — and how each `adv_stage`
 * cue changes it. Pure and immutable: a cue returns a new state (or the same object when it changes
 * nothing), so states can be kept as backlog checkpoints and compared by identity.
 *
 * A cue the stage cannot play is ignored with a warning; nothing here throws. The rules:
 * - enter (character, slot, expression?):
 *     · already on stage → it moves to the slot, as `move` does (and takes the expression if given);
 *     · the slot is free → it stands there;
 *     · the slot is taken by someone else → it takes the nearest free slot (from left: center, right;
 *       from center: left, right; from right: center, left) with a `slot_taken` warning. Nobody is
 *       pushed off: exits are the GM's call, and a character entering is about to matter;
 *     · all three slots are taken → ignored, `stage_full`.
 *     · a name not in `knownCharacters` (when given) still enters — the screen draws a silhouette —
 *       with an `unknown_character` warning.
 * - exit (character): leaves its slot; not on stage → ignored, `not_on_stage`.
 * - move (character, slot): to a taken slot → the two swap places (`slots_swapped`); not on stage →
 *   it enters at that slot instead (`not_on_stage`, then the enter rules).
 * - expression (character, expression): not on stage → ignored, `not_on_stage`.
 * - sound (sound): an ambience holds from here on (`none`: silence); an effect sounds once.
 * - music (music): a track of the preset's holds from here on (`none`: silence; `keep`: the music playing
 *   goes on, over a new place's own track too). Which tracks exist is the screen's business: it plays nothing for a name it lacks.
 * - background (scene): always plays; a scene not in `knownScenes` (when given) draws a plain
 *   backdrop and warns `unknown_scene`.
 * - a missing or blank field the action needs, or an unknown action → ignored, `malformed_cue`.
 * Names match across case, full-width forms and outer spaces (`characterKey`).
 *
 * Cues never set the speaker: paragraphs do (`stageAt` with `paragraphs`, or `withSpeaker`).
 */
import * as v from 'valibot';
import { characterKey, isStageSlot, STAGE_SLOTS, StageCueSchema, type StageCue, type StageSlot } from './cue';
import { AMBIENCES, isSoundEffect, NO_AMBIENCE, SOUND_EFFECTS } from './sound';
import type { Paragraph } from './script';

const FigureSchema = v.pipe(
	v.object({
		character: v.string(),
		/** The sprite variant; absent means the default pose. */
		expression: v.optional(v.string())
	}),
	v.readonly()
);
export type Figure = v.InferOutput<typeof FigureSchema>;

/** The stage as JSON carries it (the backlog's `stageBefore`); the type below is what it reads to. */
export const StageStateSchema = v.pipe(
	v.object({
		background: v.nullable(v.pipe(v.object({ scene: v.string() }), v.readonly())),
		slots: v.pipe(
			v.object({ left: v.nullable(FigureSchema), center: v.nullable(FigureSchema), right: v.nullable(FigureSchema) }),
			v.readonly()
		),
		/** Who speaks the paragraph on screen; null for narration or a player line. */
		speaker: v.nullable(v.string()),
		/** The GM's ambience since its `sound` cue; absent: the place's own (`placeAmbience`). */
		ambience: v.optional(v.picklist([...AMBIENCES, NO_AMBIENCE])),
		/**
		 * The last effect cued, numbered in the story's order (one more than the one before): the screen plays
		 * it when the number moves on while it listens, so a stage read back (a reload, the log) replays nothing.
		 */
		sfx: v.optional(v.pipe(v.object({ name: v.picklist(SOUND_EFFECTS), seq: v.number() }), v.readonly())),
		/** The GM's music since its `music` cue (a track's name, `none`, or `keep`); absent: the place's own track. */
		music: v.optional(v.string())
	}),
	v.readonly()
);
export type StageState = v.InferOutput<typeof StageStateSchema>;

export const EMPTY_STAGE: StageState = Object.freeze({
	background: null,
	slots: Object.freeze({ left: null, center: null, right: null }),
	speaker: null
});

export type StageWarningCode =
	'malformed_cue' | 'unknown_character' | 'unknown_scene' | 'stage_full' | 'not_on_stage' | 'slot_taken' | 'slots_swapped';

interface StageWarning {
	readonly code: StageWarningCode;
	/** For the log: what happened and what the stage did about it. */
	readonly message: string;
	readonly cue: StageCue;
}

export interface CueOptions {
	/** Registered character names; when given, others still play but warn. */
	readonly knownCharacters?: Iterable<string> | undefined;
	/** Registered scene names; when given, others still play but warn. */
	readonly knownScenes?: Iterable<string> | undefined;
}

export interface CueResult {
	readonly state: StageState;
	/** Empty when the cue played as written. */
	readonly warnings: readonly StageWarning[];
}

/** Where a blocked entrance goes instead, nearest first. */
const NEAREST_FREE: { readonly [S in StageSlot]: readonly StageSlot[] } = {
	left: ['center', 'right'],
	center: ['left', 'right'],
	right: ['center', 'left']
};

function clean(value: unknown): string | null {
	if (typeof value !== 'string') return null;
	const trimmed = value.trim();
	return trimmed === '' ? null : trimmed;
}

function includesName(names: Iterable<string>, name: string): boolean {
	const key = characterKey(name);
	for (const n of names) if (characterKey(n) === key) return true;
	return false;
}

/** The slot a character stands in, or null. */
export function slotOf(state: StageState, character: string): StageSlot | null {
	const key = characterKey(character);
	for (const slot of STAGE_SLOTS) {
		const figure = state.slots[slot];
		if (figure && characterKey(figure.character) === key) return slot;
	}
	return null;
}

function withSlots(state: StageState, changes: Partial<Record<StageSlot, Figure | null>>): StageState {
	return { ...state, slots: { ...state.slots, ...changes } };
}

function figure(character: string, expression: string | undefined): Figure {
	return expression === undefined ? { character } : { character, expression };
}

function warn(code: StageWarningCode, message: string, cue: StageCue): StageWarning {
	return { code, message, cue };
}

function enter(state: StageState, cue: StageCue, options: CueOptions): CueResult {
	const name = clean(cue.character);
	const slot = cue.slot;
	if (name === null || !isStageSlot(slot)) return ignored(state, cue, 'enter needs a character and a slot (left, center or right)');
	const warnings: StageWarning[] = [];
	if (options.knownCharacters && !includesName(options.knownCharacters, name)) {
		warnings.push(warn('unknown_character', `"${name}" is not a registered character: shown as a silhouette`, cue));
	}
	const expression = clean(cue.expression) ?? undefined;
	const here = slotOf(state, name);
	if (here !== null) {
		const moved = moveFigure(state, here, slot, cue);
		const current = moved.state.slots[slot];
		const next =
			expression !== undefined && current ? withSlots(moved.state, { [slot]: figure(current.character, expression) }) : moved.state;
		return { state: next, warnings: [...warnings, ...moved.warnings] };
	}
	let target: StageSlot | null = slot;
	const occupant = state.slots[slot];
	if (occupant) {
		target = NEAREST_FREE[slot].find((s) => state.slots[s] === null) ?? null;
		if (target === null) {
			warnings.push(warn('stage_full', `"${name}" cannot enter: left, center and right are taken; an exit must come first`, cue));
			return { state, warnings };
		}
		warnings.push(warn('slot_taken', `${slot} is taken by "${occupant.character}": "${name}" enters at ${target} instead`, cue));
	}
	return { state: withSlots(state, { [target]: figure(name, expression) }), warnings };
}

function moveFigure(state: StageState, from: StageSlot, to: StageSlot, cue: StageCue): CueResult {
	if (from === to) return { state, warnings: [] };
	const mover = state.slots[from];
	const occupant = state.slots[to];
	const next = withSlots(state, { [to]: mover, [from]: occupant });
	if (!occupant || !mover) return { state: next, warnings: [] };
	return {
		state: next,
		warnings: [
			warn('slots_swapped', `${to} is taken by "${occupant.character}": "${mover.character}" and "${occupant.character}" swap places`, cue)
		]
	};
}

function ignored(state: StageState, cue: StageCue, why: string): CueResult {
	return { state, warnings: [warn('malformed_cue', `ignored ${String(cue.action)} cue: ${why}`, cue)] };
}

function notOnStage(state: StageState, cue: StageCue, name: string): CueResult {
	return { state, warnings: [warn('not_on_stage', `ignored ${cue.action} cue: "${name}" is not on stage`, cue)] };
}

/** Plays one cue. Never throws; a cue that cannot play leaves the state as it was and says why. */
export function applyCue(state: StageState, cue: StageCue, options: CueOptions = {}): CueResult {
	switch (cue.action) {
		case 'enter':
			return enter(state, cue, options);
		case 'exit': {
			const name = clean(cue.character);
			if (name === null) return ignored(state, cue, 'exit needs a character');
			const here = slotOf(state, name);
			if (here === null) return notOnStage(state, cue, name);
			return { state: withSlots(state, { [here]: null }), warnings: [] };
		}
		case 'move': {
			const name = clean(cue.character);
			if (name === null || !isStageSlot(cue.slot)) return ignored(state, cue, 'move needs a character and a slot (left, center or right)');
			const here = slotOf(state, name);
			if (here === null) {
				const entered = enter(state, cue, options);
				return {
					state: entered.state,
					warnings: [warn('not_on_stage', `"${name}" was not on stage: enters at ${cue.slot} instead of moving`, cue), ...entered.warnings]
				};
			}
			return moveFigure(state, here, cue.slot, cue);
		}
		case 'expression': {
			const name = clean(cue.character);
			const expression = clean(cue.expression);
			if (name === null || expression === null) return ignored(state, cue, 'expression needs a character and an expression');
			const here = slotOf(state, name);
			const current = here === null ? null : state.slots[here];
			if (here === null || !current) return notOnStage(state, cue, name);
			if (current.expression === expression) return { state, warnings: [] };
			return { state: withSlots(state, { [here]: figure(current.character, expression) }), warnings: [] };
		}
		case 'background': {
			const scene = clean(cue.scene);
			if (scene === null) return ignored(state, cue, 'background needs a scene');
			const warnings =
				options.knownScenes && !includesName(options.knownScenes, scene)
					? [warn('unknown_scene', `"${scene}" is not a set scene: shown as a plain backdrop`, cue)]
					: [];
			if (state.background?.scene === scene) return { state, warnings };
			return { state: { ...state, background: { scene } }, warnings };
		}
		case 'sound': {
			const sound = cue.sound;
			if (sound === undefined) return ignored(state, cue, 'sound needs a sound');
			if (isSoundEffect(sound)) return { state: { ...state, sfx: { name: sound, seq: (state.sfx?.seq ?? 0) + 1 } }, warnings: [] };
			return { state: state.ambience === sound ? state : { ...state, ambience: sound }, warnings: [] };
		}
		case 'music': {
			const music = clean(cue.music);
			if (music === null) return ignored(state, cue, 'music needs a track name, none or keep');
			return { state: state.music === music ? state : { ...state, music }, warnings: [] };
		}
		default:
			return ignored(state, cue, 'unknown action');
	}
}

/**
 * Whether a cue's paragraph number can be placed at all, by the cue schema's own rule (a cue read
 * through the schema always can; one built in code is held to the same rule).
 */
function hasValidParagraph(cue: StageCue): boolean {
	return v.is(StageCueSchema.entries.paragraph, cue.paragraph);
}

/**
 * The paragraph before which a cue plays. A cue numbered past the reply's last paragraph (the GM
 * miscounted) plays before the last one, so it is seen while the reply is on screen.
 */
function cueParagraph(cue: StageCue, paragraphCount?: number): number {
	return placeParagraph(cue.paragraph, paragraphCount);
}

/** `cueParagraph` for a bare paragraph number (a stored cue row's). */
export function placeParagraph(paragraph: number, paragraphCount?: number): number {
	if (paragraphCount === undefined || paragraphCount <= 0) return paragraph;
	return Math.min(paragraph, paragraphCount - 1);
}

/** Cues in play order: by paragraph, then as given. Cues without a usable paragraph are left out. */
export function playOrder(cues: readonly StageCue[]): StageCue[] {
	return cues
		.map((cue, ord) => ({ cue, ord }))
		.filter(({ cue }) => hasValidParagraph(cue))
		.sort((a, b) => a.cue.paragraph - b.cue.paragraph || a.ord - b.ord)
		.map(({ cue }) => cue);
}

/** Plays cues in the order given, collecting warnings. */
export function applyCues(state: StageState, cues: Iterable<StageCue>, options: CueOptions = {}): CueResult {
	let current = state;
	const warnings: StageWarning[] = [];
	for (const cue of cues) {
		const result = applyCue(current, cue, options);
		current = result.state;
		warnings.push(...result.warnings);
	}
	return { state: current, warnings };
}

export interface StageAtOptions extends CueOptions {
	/** The reply's paragraphs: sets the speaker of paragraph `p` and places cues numbered past the end. */
	readonly paragraphs?: readonly Paragraph[] | undefined;
}

/**
 * The stage while paragraph `paragraph` of a reply is shown: `initial` with every cue tied to that
 * paragraph or an earlier one played (cues tied to p play before p appears). Cues with an unusable
 * paragraph number are skipped (`playOrder`). Without `paragraphs` the speaker is `initial`'s.
 */
export function stageAt(initial: StageState, cues: readonly StageCue[], paragraph: number, options: StageAtOptions = {}): StageState {
	const count = options.paragraphs?.length;
	const due = playOrder(cues).filter((cue) => cueParagraph(cue, count) <= paragraph);
	const { state } = applyCues(initial, due, options);
	if (!options.paragraphs) return state;
	return withSpeaker(state, speakerOf(options.paragraphs.find((p) => p.index === paragraph)));
}

/** The speaking character of a paragraph, or null for narration (or no paragraph). */
function speakerOf(paragraph: Paragraph | undefined): string | null {
	return paragraph?.kind === 'dialogue' ? paragraph.speaker : null;
}

/**
 * The stage with `character` (if on stage) showing `expression`: a speaker tag's expression
 * (`@Name(smile): …`) holds while that line is read; the cues' expression stays the figure's own.
 */
export function withExpression(state: StageState, character: string, expression: string): StageState {
	const slot = slotOf(state, character);
	const current = slot === null ? null : state.slots[slot];
	if (slot === null || !current || current.expression === expression) return state;
	return withSlots(state, { [slot]: figure(current.character, expression) });
}

export function withSpeaker(state: StageState, speaker: string | null): StageState {
	return state.speaker === speaker ? state : { ...state, speaker };
}

/**
 * How a slot is drawn:
 * - `lit`: its character is speaking; `dim`: on stage, someone else speaks; `normal`: narration;
 * - `empty`: nobody there.
 * Narration dims nobody: the scene is being described, and greying everyone between every two lines
 * of dialogue would make the stage flicker. A speaker who is not on stage (the player character, a
 * voice off) dims everyone, since none of them is talking.
 */
export type SlotLight = 'lit' | 'dim' | 'normal' | 'empty';

export function litSlots(state: StageState, speaker: string | null = state.speaker): { readonly [S in StageSlot]: SlotLight } {
	const speaking = speaker === null ? null : slotOf(state, speaker);
	const light = (slot: StageSlot): SlotLight => {
		if (!state.slots[slot]) return 'empty';
		if (speaker === null) return 'normal';
		return slot === speaking ? 'lit' : 'dim';
	};
	return { left: light('left'), center: light('center'), right: light('right') };
}

/** The slot of the speaking character, or null (narration, or a speaker not on stage). */
export function speakingSlot(state: StageState, speaker: string | null = state.speaker): StageSlot | null {
	return speaker === null ? null : slotOf(state, speaker);
}

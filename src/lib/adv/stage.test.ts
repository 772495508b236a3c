import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
	applyCue,
	applyCues,
	EMPTY_STAGE,
	litSlots,
	placeParagraph,
	playOrder,
	slotOf,
	speakingSlot,
	stageAt,
	StageStateSchema,
	withExpression,
	type StageState,
	type StageWarningCode
} from './stage';
import { StageCueSchema, type StageCue } from './cue';
import { parseScript } from './script';
import { seeded } from '../../../tests/helpers/random';

const enter = (character: string, slot: StageCue['slot'], extra: Partial<StageCue> = {}): StageCue => ({
	paragraph: 0,
	action: 'enter',
	character,
	slot,
	...extra
});
const exit = (character: string): StageCue => ({ paragraph: 0, action: 'exit', character });
const move = (character: string, slot: StageCue['slot']): StageCue => ({ paragraph: 0, action: 'move', character, slot });

function play(cues: StageCue[], state: StageState = EMPTY_STAGE) {
	return applyCues(state, cues);
}
function who(state: StageState): (string | null)[] {
	return [state.slots.left?.character ?? null, state.slots.center?.character ?? null, state.slots.right?.character ?? null];
}
function codes(warnings: readonly { code: StageWarningCode }[]): StageWarningCode[] {
	return warnings.map((w) => w.code);
}

describe('applyCue', () => {
	it('enters, moves, changes expression, exits and sets the background', () => {
		let { state, warnings } = play([
			enter('Bram', 'left', { expression: 'stern' }),
			enter('Ana', 'right'),
			{ paragraph: 0, action: 'background', scene: 'North Gate' }
		]);
		expect(warnings).toEqual([]);
		expect(who(state)).toEqual(['Bram', null, 'Ana']);
		expect(state.slots.left).toEqual({ character: 'Bram', expression: 'stern' });
		expect(state.background).toEqual({ scene: 'North Gate' });
		({ state, warnings } = play(
			[move('Bram', 'center'), { paragraph: 0, action: 'expression', character: 'ana', expression: 'smile' }, exit('BRAM')],
			state
		));
		expect(warnings).toEqual([]);
		expect(who(state)).toEqual([null, null, 'Ana']);
		expect(state.slots.right).toEqual({ character: 'Ana', expression: 'smile' });
	});

	it('never mutates the state it is given, and returns it unchanged when nothing changes', () => {
		const before = play([enter('Bram', 'left')]).state;
		const snapshot = JSON.stringify(before);
		const after = applyCue(before, move('Bram', 'right')).state;
		expect(JSON.stringify(before)).toBe(snapshot);
		expect(who(after)).toEqual([null, null, 'Bram']);
		expect(applyCue(before, exit('Nobody')).state).toBe(before);
		expect(applyCue(before, move('Bram', 'left')).state).toBe(before);
	});

	it('enter of someone already on stage moves them and keeps or updates the expression', () => {
		const start = play([enter('Bram', 'left', { expression: 'stern' })]).state;
		const moved = applyCue(start, enter('bram', 'right'));
		expect(moved.warnings).toEqual([]);
		expect(who(moved.state)).toEqual([null, null, 'Bram']);
		expect(moved.state.slots.right?.expression).toBe('stern');
		expect(applyCue(start, enter('Bram', 'left', { expression: 'smile' })).state.slots.left).toEqual({
			character: 'Bram',
			expression: 'smile'
		});
	});

	it('an entrance to a taken slot goes to the nearest free slot; nobody is pushed off', () => {
		const one = play([enter('Bram', 'center')]).state;
		const r = applyCue(one, enter('Ana', 'center'));
		expect(codes(r.warnings)).toEqual(['slot_taken']);
		expect(who(r.state)).toEqual(['Ana', 'Bram', null]);
		const fromRight = applyCue(play([enter('Bram', 'right')]).state, enter('Ana', 'right'));
		expect(who(fromRight.state)).toEqual([null, 'Ana', 'Bram']);
	});

	it('a fourth character is ignored with a warning', () => {
		const full = play([enter('A', 'left'), enter('B', 'center'), enter('C', 'right')]).state;
		const r = applyCue(full, enter('D', 'center'));
		expect(codes(r.warnings)).toEqual(['stage_full']);
		expect(r.state).toBe(full);
	});

	it('move to a taken slot swaps; move of someone absent enters them', () => {
		const two = play([enter('A', 'left'), enter('B', 'center')]).state;
		const swapped = applyCue(two, move('A', 'center'));
		expect(codes(swapped.warnings)).toEqual(['slots_swapped']);
		expect(who(swapped.state)).toEqual(['B', 'A', null]);
		const entered = applyCue(two, move('C', 'right'));
		expect(codes(entered.warnings)).toEqual(['not_on_stage']);
		expect(who(entered.state)).toEqual(['A', 'B', 'C']);
	});

	it('exit or expression of someone not on stage is ignored with a warning', () => {
		const one = play([enter('A', 'left')]).state;
		for (const cue of [exit('B'), { paragraph: 0, action: 'expression', character: 'B', expression: 'sad' } satisfies StageCue]) {
			const r = applyCue(one, cue);
			expect(codes(r.warnings)).toEqual(['not_on_stage']);
			expect(r.state).toBe(one);
		}
	});

	it('an unregistered character still plays, with a warning; so does an unset scene', () => {
		const options = { knownCharacters: ['Bram'], knownScenes: new Set(['North Gate']) };
		const known = applyCue(EMPTY_STAGE, enter('ｂｒａｍ', 'left'), options);
		expect(known.warnings).toEqual([]);
		const r = applyCue(EMPTY_STAGE, enter('Stranger', 'left'), options);
		expect(codes(r.warnings)).toEqual(['unknown_character']);
		expect(who(r.state)).toEqual(['Stranger', null, null]);
		const bg = applyCue(EMPTY_STAGE, { paragraph: 0, action: 'background', scene: 'Cellar' }, options);
		expect(codes(bg.warnings)).toEqual(['unknown_scene']);
		expect(bg.state.background).toEqual({ scene: 'Cellar' });
		// Without a roster nothing is checked.
		expect(applyCue(EMPTY_STAGE, enter('Stranger', 'left')).warnings).toEqual([]);
	});

	it.each<[string, StageCue]>([
		['enter without slot', { paragraph: 0, action: 'enter', character: 'A' }],
		['enter without character', { paragraph: 0, action: 'enter', slot: 'left' }],
		['enter with blank character', { paragraph: 0, action: 'enter', character: '  ', slot: 'left' }],
		['exit without character', { paragraph: 0, action: 'exit' }],
		['move without slot', { paragraph: 0, action: 'move', character: 'A' }],
		['expression without expression', { paragraph: 0, action: 'expression', character: 'A' }],
		['background without scene', { paragraph: 0, action: 'background' }]
	])('%s is ignored with a warning', (_, cue) => {
		const start = play([enter('A', 'left')]).state;
		const r = applyCue(start, cue);
		expect(codes(r.warnings)).toEqual(['malformed_cue']);
		expect(r.state).toBe(start);
	});

	it('reads cues from outside data with the one cue schema: junk is refused, extra keys dropped', () => {
		const junk: unknown[] = [
			null,
			3,
			'enter',
			{},
			{ paragraph: -1, action: 'enter' },
			{ paragraph: 1.5, action: 'exit' },
			{ paragraph: 0, action: 'dance' },
			{ paragraph: 0, action: 'enter', character: 7, slot: 'top' }
		];
		for (const j of junk) expect(v.safeParse(StageCueSchema, j).success, JSON.stringify(j)).toBe(false);
		expect(v.parse(StageCueSchema, { paragraph: 2, action: 'move', character: 'A', slot: 'right', extra: true })).toEqual({
			paragraph: 2,
			action: 'move',
			character: 'A',
			slot: 'right'
		});
		// A well-formed cue the stage cannot play is ignored with a warning, never a throw.
		const bare = v.parse(StageCueSchema, { paragraph: 0, action: 'enter' });
		expect(codes(applyCue(EMPTY_STAGE, bare).warnings)).toEqual(['malformed_cue']);
	});

	it('keeps every character in at most one slot, whatever the cues (random)', () => {
		const rng = seeded(4242);
		const names = ['A', 'a', 'B', 'C', 'D', 'Ｅ', 'e'];
		const actions = ['enter', 'exit', 'move', 'expression', 'background'] as const;
		const slots = ['left', 'center', 'right', undefined] as const;
		for (let run = 0; run < 300; run++) {
			let state = EMPTY_STAGE;
			for (let i = 0; i < 30; i++) {
				const cue: StageCue = {
					paragraph: 0,
					action: rng.pick(actions),
					character: rng.pick([...names, undefined]),
					slot: rng.pick(slots),
					expression: rng.pick(['smile', '', undefined]),
					scene: rng.pick(['Gate', undefined])
				};
				state = applyCue(state, cue).state;
				const keys = who(state)
					.filter((n): n is string => n !== null)
					.map((n) => n.normalize('NFKC').toLowerCase());
				expect(new Set(keys).size).toBe(keys.length);
			}
		}
	});
});

describe('music cues', () => {
	const music = (paragraph: number, name: string): StageCue => ({ paragraph, action: 'music', music: name });
	it('hold a track until the next (none and keep are words of their own); a blank one is ignored', () => {
		const first = play([music(0, ' Storm at sea ')]);
		let state = first.state;
		expect(first.warnings).toEqual([]);
		expect(state.music).toBe('Storm at sea');
		({ state } = play([music(1, 'keep')], state));
		expect(state.music).toBe('keep');
		({ state } = play([music(2, 'none')], state));
		expect(state.music).toBe('none');
		expect(v.is(StageStateSchema, state)).toBe(true);
		const same = play([music(3, 'none')], state);
		expect(same.state).toBe(state);
		const blank = play([{ paragraph: 0, action: 'music', music: '  ' }]);
		expect(blank.state).toBe(EMPTY_STAGE);
		expect(codes(blank.warnings)).toEqual(['malformed_cue']);
	});
});

describe('sound cues', () => {
	const sound = (paragraph: number, name: NonNullable<StageCue['sound']>): StageCue => ({ paragraph, action: 'sound', sound: name });
	it('hold an ambience until the next (none is silence), and number each effect after the one before', () => {
		const first = play([sound(0, 'rain'), sound(1, 'thunder')]);
		let state = first.state;
		expect(first.warnings).toEqual([]);
		expect(state.ambience).toBe('rain');
		expect(state.sfx).toEqual({ name: 'thunder', seq: 1 });
		({ state } = play([sound(2, 'thunder'), sound(3, 'none')], state));
		expect(state.ambience).toBe('none');
		expect(state.sfx).toEqual({ name: 'thunder', seq: 2 });
		expect(v.is(StageStateSchema, state)).toBe(true);
		// A stage stored before sound existed still reads.
		expect(v.is(StageStateSchema, EMPTY_STAGE)).toBe(true);
	});
	it('ignore a sound cue without a sound', () => {
		const { state, warnings } = play([{ paragraph: 0, action: 'sound' }]);
		expect(state).toBe(EMPTY_STAGE);
		expect(codes(warnings)).toEqual(['malformed_cue']);
	});
});

describe('stageAt', () => {
	const cues: StageCue[] = [
		{ paragraph: 2, action: 'enter', character: 'Ana', slot: 'right' },
		{ paragraph: 0, action: 'background', scene: 'Gate' },
		{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left' },
		{ paragraph: 2, action: 'exit', character: 'Bram' },
		{ paragraph: 9, action: 'expression', character: 'Ana', expression: 'smile' }
	];
	const reply = parseScript('The gate.\n\n@Bram: Halt.\n\n@Ana: Let us in.', { final: true });

	it('plays cues tied to a paragraph before it is shown, in paragraph order then given order', () => {
		expect(who(stageAt(EMPTY_STAGE, cues, 0))).toEqual(['Bram', null, null]);
		expect(who(stageAt(EMPTY_STAGE, cues, 1))).toEqual(['Bram', null, null]);
		expect(who(stageAt(EMPTY_STAGE, cues, 2))).toEqual([null, null, 'Ana']);
		expect(stageAt(EMPTY_STAGE, cues, 2).slots.right?.expression).toBeUndefined();
		expect(stageAt(EMPTY_STAGE, cues, 0).background).toEqual({ scene: 'Gate' });
		expect(playOrder(cues).map((c) => c.action)).toEqual(['background', 'enter', 'enter', 'exit', 'expression']);
	});

	it('with the paragraphs: sets the speaker and plays cues numbered past the end before the last paragraph', () => {
		expect(stageAt(EMPTY_STAGE, cues, 0, { paragraphs: reply }).speaker).toBeNull();
		expect(stageAt(EMPTY_STAGE, cues, 1, { paragraphs: reply }).speaker).toBe('Bram');
		const last = stageAt(EMPTY_STAGE, cues, 2, { paragraphs: reply });
		expect(last.speaker).toBe('Ana');
		expect(last.slots.right).toEqual({ character: 'Ana', expression: 'smile' });
	});

	it('skips cues with an unusable paragraph number', () => {
		const bad: StageCue[] = [
			{ paragraph: -1, action: 'enter', character: 'X', slot: 'left' },
			{ paragraph: Number.NaN, action: 'enter', character: 'Y', slot: 'left' }
		];
		expect(stageAt(EMPTY_STAGE, bad, 5)).toEqual(EMPTY_STAGE);
	});
});

describe('litSlots', () => {
	const stage = play([enter('Bram', 'left'), enter('Ana', 'right')]).state;

	it('lights the speaker and greys the others', () => {
		expect(litSlots(stage, 'ana')).toEqual({ left: 'dim', center: 'empty', right: 'lit' });
		expect(speakingSlot(stage, 'Ana')).toBe('right');
	});

	it('narration dims nobody', () => {
		expect(litSlots(stage, null)).toEqual({ left: 'normal', center: 'empty', right: 'normal' });
		expect(litSlots(stage)).toEqual({ left: 'normal', center: 'empty', right: 'normal' });
	});

	it('a speaker who is not on stage greys everyone', () => {
		expect(litSlots(stage, 'Narrator Voice')).toEqual({ left: 'dim', center: 'empty', right: 'dim' });
		expect(speakingSlot(stage, 'Narrator Voice')).toBeNull();
	});

	it('uses the state speaker by default', () => {
		expect(litSlots({ ...stage, speaker: 'Bram' })).toEqual({ left: 'lit', center: 'empty', right: 'dim' });
		expect(slotOf(stage, ' BRAM ')).toBe('left');
	});
});

describe('withExpression', () => {
	it('changes the expression of someone on stage, in their slot, and returns the state itself when nothing changes', () => {
		const { state } = play([enter('Bram', 'left', { expression: 'calm' })]);
		const smiling = withExpression(state, ' bram ', 'smile');
		expect(smiling.slots.left).toEqual({ character: 'Bram', expression: 'smile' });
		expect(state.slots.left).toEqual({ character: 'Bram', expression: 'calm' });
		expect(withExpression(smiling, 'Bram', 'smile')).toBe(smiling);
		expect(withExpression(state, 'Ana', 'smile')).toBe(state);
	});
});

describe('placeParagraph', () => {
	it('moves a paragraph number past the reply onto its last paragraph, and keeps the others', () => {
		expect(placeParagraph(9, 3)).toBe(2);
		expect(placeParagraph(2, 3)).toBe(2);
		expect(placeParagraph(0, 3)).toBe(0);
		// Without a paragraph count (or with none) there is nothing to clamp to.
		expect(placeParagraph(9)).toBe(9);
		expect(placeParagraph(9, 0)).toBe(9);
	});
});

describe('StageStateSchema', () => {
	it('reads a stage back from JSON as it was, and refuses one with a broken slot', () => {
		const { state } = play([enter('Bram', 'left', { expression: 'calm' }), { paragraph: 0, action: 'background', scene: 'Gate' }]);
		const json: unknown = JSON.parse(JSON.stringify({ ...state, speaker: 'Bram' }));
		expect(v.parse(StageStateSchema, json)).toEqual({ ...state, speaker: 'Bram' });
		expect(v.parse(StageStateSchema, JSON.parse(JSON.stringify(EMPTY_STAGE)))).toEqual(EMPTY_STAGE);
		expect(v.safeParse(StageStateSchema, { ...EMPTY_STAGE, slots: { left: 'Bram', center: null, right: null } }).success).toBe(false);
		expect(v.safeParse(StageStateSchema, { background: null, slots: EMPTY_STAGE.slots }).success).toBe(false);
	});
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { characterKey, isStageAction, isStageSlot, sameCharacter, STAGE_ACTIONS, STAGE_SLOTS, type StageCue } from '../../../src/lib/adv';
import { STAGE_ACTIONS as SERVER_ACTIONS, STAGE_SLOTS as SERVER_SLOTS, type StageCue as ServerStageCue } from '../../../src/lib/server/stage';
import type { AdvCue } from '../../../src/lib/server/tools/context';

describe('the browser copy of the stage cue', () => {
	it('has the same shape as the stored cue and the turn cue', () => {
		expectTypeOf<StageCue>().toEqualTypeOf<ServerStageCue>();
		expectTypeOf<StageCue>().toEqualTypeOf<AdvCue>();
		expect([...STAGE_ACTIONS]).toEqual([...SERVER_ACTIONS]);
		expect([...STAGE_SLOTS]).toEqual([...SERVER_SLOTS]);
	});

	it('guards slots and actions at run time', () => {
		expect(isStageSlot('left')).toBe(true);
		expect(isStageSlot('top')).toBe(false);
		expect(isStageSlot(1)).toBe(false);
		expect(isStageAction('enter')).toBe(true);
		expect(isStageAction('dance')).toBe(false);
	});

	it('compares names across case, width and outer spaces', () => {
		expect(sameCharacter('Bram', ' bram ')).toBe(true);
		expect(sameCharacter('Ｂｒａｍ', 'Bram')).toBe(true);
		expect(sameCharacter('Bram', 'Bran')).toBe(false);
		expect(characterKey('ブラム')).toBe('ブラム');
	});
});

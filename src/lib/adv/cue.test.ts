/** The cue's own rules: slots, and how names compare on stage. */
import { describe, expect, it } from 'vitest';
import { characterKey, isStageSlot, sameCharacter } from './cue';

describe('slots and names', () => {
	it('guards slots at run time', () => {
		expect(isStageSlot('left')).toBe(true);
		expect(isStageSlot('top')).toBe(false);
		expect(isStageSlot(1)).toBe(false);
	});

	it('compares names across case, width and outer spaces', () => {
		expect(sameCharacter('Bram', ' bram ')).toBe(true);
		expect(sameCharacter('Ｂｒａｍ', 'Bram')).toBe(true);
		expect(sameCharacter('Bram', 'Bran')).toBe(false);
		expect(characterKey('ブラム')).toBe('ブラム');
	});
});

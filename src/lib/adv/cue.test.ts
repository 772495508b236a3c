/** The cue's own rules: slots, how names compare on stage, and the image names of expression sprites. */
import { describe, expect, it } from 'vitest';
import { characterKey, isStageSlot, parseSpriteVariant, sameCharacter, spriteVariantName } from './cue';

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

describe('sprite variant names', () => {
	it('names an expression sprite in the tag form, trimmed, and reads the name back', () => {
		expect(spriteVariantName(' Bram ', ' smile ')).toBe('Bram(smile)');
		expect(parseSpriteVariant(spriteVariantName('アナ', '笑顔'))).toEqual({ character: 'アナ', expression: '笑顔' });
		expect(parseSpriteVariant(' Bram ( grim ) ')).toEqual({ character: 'Bram', expression: 'grim' });
	});

	it('reads a plain name, or anything but one name and one expression, as no variant', () => {
		for (const name of ['Bram', 'Bram()', 'Bram( )', '(smile)', ' (smile)', 'Bram(smile', 'Bram(a(b))', 'Bram(smile) again'])
			expect(parseSpriteVariant(name), name).toBeNull();
	});
});

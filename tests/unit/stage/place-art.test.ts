import { describe, expect, it } from 'vitest';
import { placeArtFor } from '../../../src/lib/server/stage/place-art';

const arts = [
	{ targetName: 'The Gilded Tankard' },
	{ targetName: 'The Gilded Tankard cellar' },
	{ targetName: '地下' },
	{ targetName: '北門' }
];
const art = (scene: string) => placeArtFor(scene, arts)?.targetName;

describe('placeArtFor', () => {
	it('finds the author’s place under the names a GM writes for it', () => {
		expect(art('The Gilded Tankard')).toBe('The Gilded Tankard');
		expect(art('  the gilded   TANKARD ')).toBe('The Gilded Tankard');
		expect(art('Ｔｈｅ Gilded Tankard')).toBe('The Gilded Tankard');
		expect(art('The Gilded Tankard — back room')).toBe('The Gilded Tankard');
		expect(art('The Gilded Tankard (night)')).toBe('The Gilded Tankard');
		expect(art('北門・見張り台')).toBe('北門');
		expect(art('北門（夜）')).toBe('北門');
	});

	it('prefers the longest place a name starts with, and never a place merely inside another name', () => {
		expect(art('The Gilded Tankard cellar, by the casks')).toBe('The Gilded Tankard cellar');
		expect(art('60高地下の無人地帯')).toBeUndefined();
		expect(art('北門前')).toBeUndefined();
		expect(art('The Gilded Tankards')).toBeUndefined();
		expect(art('Behind The Gilded Tankard')).toBeUndefined();
	});
});

import { describe, expect, it } from 'vitest';
import { placeKind } from '../../../src/lib/server/stage';
import { getWorld, WORLD_IDS } from '../../../src/lib/server/worlds';
import { LANGUAGES } from '../../../src/lib/types/settings';

describe('placeKind (which placeholder backdrop a place gets)', () => {
	it('tells rooms, streets, open country and the outdoors at night apart, in English and Japanese', () => {
		expect(placeKind('The Crooked Lantern', 'The low, smoky common room of a harbour tavern at night.')).toBe('interior');
		expect(placeKind('曲がり灯亭', '夜の港の酒場の、天井の低い煙った大部屋。')).toBe('interior');
		expect(placeKind('Harbour', 'A harbour at dawn, masts and gulls.')).toBe('street');
		expect(placeKind('North Gate', 'A stone city gate at night, torches, fog.')).toBe('night');
		expect(placeKind('北門', '夜の石造りの城門、松明、霧。')).toBe('night');
		expect(placeKind('The Ash Steppe', 'Grey grassland under a wide sky.')).toBe('field');
		expect(placeKind('草原', '灰色の草原と広い空。')).toBe('field');
		// Dawn (夜明け) is not night.
		expect(placeKind('丘', '夜明けの丘。')).toBe('field');
		// Nothing to go on: open country, the most neutral backdrop.
		expect(placeKind('Somewhere')).toBe('field');
		expect(placeKind('Moonrise')).toBe('field');
		expect(placeKind('Under the moon')).toBe('night');
	});

	it('reads Japanese by longest match: a place word inside a longer word does not count', () => {
		// "No man's land below Hill 60": 高地 + 下, not 高 + 地下 (underground).
		expect(placeKind('60高地下の無人地帯')).toBe('field');
		expect(placeKind('60高地下の無人地帯', '砲弾の穴と泥、鉄条網。夜明け前の灰色の空。')).toBe('field');
		// A trench (塹壕) is open country even though it holds 壕 (a dugout); a dugout is a room.
		expect(placeKind('塹壕')).toBe('field');
		expect(placeKind('待避壕')).toBe('interior');
		// Underground, on its own or in a longer word, is still underground.
		expect(placeKind('地下', '湿った石壁。')).toBe('interior');
		expect(placeKind('古い地下室')).toBe('interior');
		// Words that hold a place word but name none: a bandit (山賊) is no mountain, a tool (道具) no road.
		expect(placeKind('山賊の隠れ家の部屋')).toBe('interior');
		expect(placeKind('道具屋', '棚に道具が並ぶ店内。')).toBe('interior');
		expect(placeKind('海賊の酒場')).toBe('interior');
	});

	it('reads English as whole words, longest first', () => {
		expect(placeKind("No man's land below Hill 60", 'Shell holes, mud and wire under a grey sky.')).toBe('field');
		expect(placeKind('The Barn', 'A crowbar lies on the floor of the common room.')).toBe('interior');
		// Part of a longer word is not the word: "battlefield" is one field, "innkeeper" no inn.
		expect(placeKind('Innkeeper’s yard', 'Battlefields beyond the hills.')).toBe('field');
		expect(placeKind('Streets after dark')).toBe('night');
	});

	it('gives every shipped opening scene the kind it is', () => {
		const kinds = Object.fromEntries(
			WORLD_IDS.flatMap((id) =>
				LANGUAGES.map((language) => {
					const { name, description } = getWorld(id, language).opening.scene;
					return [`${id}:${language}`, placeKind(name, description)];
				})
			)
		);
		expect(kinds).toEqual({
			'sword-and-sorcery:ja': 'interior',
			'sword-and-sorcery:en': 'interior',
			'iron-walkers:ja': 'field',
			'iron-walkers:en': 'field'
		});
	});
});

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

/**
 * The official worlds hold their canon without crying wolf (issue 27): none of their secret markers
 * or anachronism words appears in their own texts, as the editor's check (the guard's matcher) reads them.
 */
import { describe, expect, it } from 'vitest';
import { getWorld, WORLD_IDS } from '../../../src/lib/server/worlds';
import { formFromContent } from '../../../src/lib/presets/form';
import { wouldFire } from '../../../src/lib/presets/canon-scan';

describe.each(WORLD_IDS.flatMap((id) => (['en', 'ja'] as const).map((language) => [id, language] as const)))(
	'official world %s (%s)',
	(id, language) => {
		const world = getWorld(id, language);

		it('lists what it does not have', () => {
			expect(world.anachronisms.length).toBeGreaterThanOrEqual(5);
		});

		it('has no term that would fire on its own texts', () => {
			expect(wouldFire(formFromContent(world))).toEqual([]);
		});
	}
);

import { describe, expect, it } from 'vitest';
import { spellOut, stateView } from '../../../src/lib/components/panels/state-view';
import { getWorld } from '../../../src/lib/server/worlds';

const yesNo = { yes: 'yes', no: 'no' };

describe('the state as a sheet', () => {
	it('puts where and when first, pairs x / xMax as a gauge, lists as lists, groups nested records', () => {
		const view = stateView(
			{ hp: 7, hpMax: 10, location: 'North Gate', time: 'dusk', inventory: ['rope', 'lantern'], flags: { gateOpen: true }, silver: 6 },
			'en',
			yesNo
		);
		expect(view.headline).toEqual([
			{ key: 'location', label: 'Location', text: 'North Gate' },
			{ key: 'time', label: 'Time', text: 'dusk' }
		]);
		expect(view.items).toEqual([
			{ kind: 'meter', key: 'hp', label: 'HP', value: 7, max: 10 },
			{ kind: 'list', key: 'inventory', label: 'Inventory', items: ['rope', 'lantern'] },
			{ kind: 'group', key: 'flags', label: 'Flags', items: [{ kind: 'value', key: 'flags.gateOpen', label: 'Gate open', text: 'yes' }] },
			{ kind: 'value', key: 'silver', label: 'Silver', text: '6' }
		]);
	});

	it("uses the labels the state gives, by path or key, in the story's language; never shows camelCase or _ keys", () => {
		const doc = { debts: { greyHands: '30 silver' }, _labels: { greyHands: '灰色の手', 'debts.other': 'x' }, _hidden: 1 };
		const view = stateView(doc, 'ja', { yes: 'はい', no: 'いいえ' });
		expect(view.items).toEqual([
			{
				kind: 'group',
				key: 'debts',
				label: '借金',
				items: [{ kind: 'value', key: 'debts.greyHands', label: '灰色の手', text: '30 silver' }]
			}
		]);
		expect(spellOut('greyHands')).toBe('Grey hands');
		expect(spellOut('lewis_drums')).toBe('Lewis drums');
	});

	it('reads every key of the shipped Japanese opening states under a Japanese label', () => {
		for (const id of ['sword-and-sorcery', 'iron-walkers']) {
			const view = stateView(getWorld(id, 'ja').opening.state, 'ja', { yes: 'はい', no: 'いいえ' });
			const labels: string[] = [];
			const walk = (items: readonly (typeof view.items)[number][]) => {
				for (const item of items) {
					labels.push(item.label);
					if (item.kind === 'group') walk(item.items);
				}
			};
			walk(view.items);
			labels.push(...view.headline.map((h) => h.label));
			expect(
				labels.filter((l) => /[a-z]/.test(l)),
				id
			).toEqual([]);
		}
	});
});

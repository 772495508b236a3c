import { describe, expect, it } from 'vitest';
import { imageOrders, npcs, scenes } from '../../../../src/lib/server/stage';
import { faces, json, useTurns } from './helpers';

const withTurn = useTurns();

describe('roll_dice', () => {
	it('returns the total and every die, echoing the reason', async () => {
		await withTurn(
			async (t) => {
				expect(json(await t.ok('roll_dice', { notation: '2d6+3', reason: 'Mira climbs the wall' }))).toEqual({
					reason: 'Mira climbs the wall',
					notation: '2d6+3',
					total: 12,
					dice: [{ term: '2d6', dice: [4, 5], kept: [4, 5] }],
					modifier: 3
				});
				expect(t.staging.size).toBe(0);
			},
			faces(4, 5)
		);
	});

	it('uses the cryptographic RNG when none is injected, and explains bad notation', async () => {
		await withTurn(async (t) => {
			const roll = json(await t.ok('roll_dice', { notation: 'd20' }));
			expect(roll.total).toBeGreaterThanOrEqual(1);
			expect(roll.total).toBeLessThanOrEqual(20);
			const bad = await t.call('roll_dice', { notation: '2d6 plus luck' });
			expect(bad).toMatchObject({ isError: true, ran: true });
			expect(bad.content).toMatch(/cannot read .* use forms like 2d6\+1/);
		});
	});
});

describe('register_npc / set_scene', () => {
	it('registers an NPC and orders one sprite; the same look again orders nothing, a new look updates the pending order', async () => {
		await withTurn(async (t) => {
			expect(json(await t.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, steel breastplate' }))).toEqual({
				npc: 'Bram',
				registration: 'created',
				sprite: 'ordered (generated after this turn)'
			});
			expect(json(await t.ok('register_npc', { name: 'Bram', appearance: 'tall man,  grey beard, steel breastplate' }))).toMatchObject({ registration: 'unchanged' });
			expect(json(await t.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, red cloak' }))).toMatchObject({ registration: 'updated', sprite: 'ordered (generated after this turn)' });
			await t.commit();
			expect(await npcs.get(t.s.db, 'Bram')).toMatchObject({ appearance: 'tall man, grey beard, red cloak' });
			const orders = await imageOrders.forTarget(t.s.db, 'npc', 'Bram');
			expect(orders).toHaveLength(1);
			expect(orders[0]).toMatchObject({ status: 'pending', turnId: null });
			expect(orders[0]?.prompt).toContain('red cloak');
			expect(orders[0]?.prompt).not.toContain('breastplate');

			const later = t.next();
			expect(json(await later.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, red cloak', regenerate: true }))).toMatchObject({ registration: 'unchanged', sprite: 'ordered (generated after this turn)' });
		});
	});

	it('sets a scene and orders its background', async () => {
		await withTurn(async (t) => {
			expect(json(await t.ok('set_scene', { name: 'North Gate', description: 'massive stone gate, torches, light snow, dusk' }))).toEqual({
				scene: 'North Gate',
				registration: 'created',
				background: 'ordered (generated after this turn)'
			});
			await t.commit();
			expect(await scenes.get(t.s.db, 'North Gate')).toMatchObject({ description: 'massive stone gate, torches, light snow, dusk' });
			const [order] = await imageOrders.forTarget(t.s.db, 'scene', 'North Gate');
			expect(order?.prompt).toMatch(/^Background art.*Place: North Gate\. massive stone gate/);
		});
	});

	it('rejects an empty or oversized look before anything is written', async () => {
		await withTurn(async (t) => {
			const empty = await t.call('register_npc', { name: 'Bram', appearance: '' });
			expect(empty).toMatchObject({ isError: true, ran: false });
			const long = await t.call('set_scene', { name: 'Gate', description: 'x'.repeat(1001) });
			expect(long).toMatchObject({ isError: true, ran: false });
			const blank = await t.call('register_npc', { name: 'Bram', appearance: '   ' });
			expect(blank).toMatchObject({ isError: true, ran: true });
			expect(blank.content).toMatch(/appearance of "Bram" is empty/);
			expect(t.staging.size).toBe(0);
		});
	});
});

describe('adv_stage', () => {
	it('validates cues per action and adds them to the turn', async () => {
		await withTurn(async (t) => {
			await t.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard' });
			await t.ok('set_scene', { name: 'North Gate', description: 'stone gate at dusk' });
			const out = json(
				await t.ok('adv_stage', {
					cues: [
						{ paragraph: 0, action: 'background', scene: 'North Gate' },
						{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left', expression: 'stern' },
						{ paragraph: 2, action: 'expression', character: 'bram', expression: 'smile' },
						{ paragraph: 3, action: 'move', character: 'Bram', slot: 'center', expression: 'ignored' },
						{ paragraph: 4, action: 'exit', character: 'Bram' }
					]
				})
			);
			expect(out).toEqual({ staged: 5, cues_this_turn: 5 });
			expect(t.ctx.cues).toEqual([
				{ paragraph: 0, action: 'background', scene: 'North Gate' },
				{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left', expression: 'stern' },
				{ paragraph: 2, action: 'expression', character: 'bram', expression: 'smile' },
				{ paragraph: 3, action: 'move', character: 'Bram', slot: 'center' },
				{ paragraph: 4, action: 'exit', character: 'Bram' }
			]);
			// Cues are the turn's, not staged database writes.
			expect(t.staging.size).toBe(2);
		});
	});

	it('allows unknown characters and scenes but says so', async () => {
		await withTurn(async (t) => {
			const out = json(
				await t.ok('adv_stage', {
					cues: [
						{ paragraph: 0, action: 'enter', character: 'Mira', slot: 'right' },
						{ paragraph: 1, action: 'exit', character: 'Mira' },
						{ paragraph: 1, action: 'background', scene: 'Crypt' }
					]
				})
			);
			expect(out.staged).toBe(3);
			expect(out.notes).toEqual([
				'character "Mira" is not registered: shown as a silhouette until register_npc gives them a sprite',
				'scene "Crypt" is not set: shown as a plain backdrop until set_scene describes it'
			]);
		});
	});

	it('rejects a whole call with an incomplete cue, adding none', async () => {
		await withTurn(async (t) => {
			await t.ok('adv_stage', { cues: [{ paragraph: 0, action: 'exit', character: 'Mira' }] });
			const cases: [unknown, RegExp][] = [
				[{ cues: [{ paragraph: 1, action: 'enter', character: 'Bram' }] }, /cues\.0\.slot: enter needs "character" and "slot"/],
				[{ cues: [{ paragraph: 1, action: 'background' }] }, /cues\.0\.scene: background needs "scene"/],
				[{ cues: [{ paragraph: 1, action: 'expression', character: 'Bram' }] }, /expression needs "character" and "expression"/],
				[{ cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'top' }] }, /slot/],
				[{ cues: [{ paragraph: -1, action: 'exit', character: 'Bram' }] }, /paragraph/],
				[{ cues: [{ paragraph: 1, action: 'dance', character: 'Bram' }] }, /action/],
				[{ cues: [] }, /at least one cue/],
				[{ cues: [{ paragraph: 0, action: 'exit', character: 'Mira' }, { paragraph: 1, action: 'move', character: 'Mira' }] }, /cues\.1\.slot/]
			];
			for (const [args, message] of cases) {
				const r = await t.call('adv_stage', args);
				expect(r, JSON.stringify(args)).toMatchObject({ isError: true, ran: false });
				expect(r.content).toMatch(message);
			}
			expect(t.ctx.cues).toHaveLength(1);
		});
	});
});

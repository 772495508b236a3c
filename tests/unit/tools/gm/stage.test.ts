import { describe, expect, it } from 'vitest';
import { imageOrders, npcs, scenes, writeSoundsQuery } from '../../../../src/lib/server/stage';
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
			expect(json(await t.ok('register_npc', { name: 'Bram', appearance: 'tall man,  grey beard, steel breastplate' }))).toMatchObject({
				registration: 'unchanged'
			});
			expect(json(await t.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, red cloak' }))).toMatchObject({
				registration: 'updated',
				sprite: 'ordered (generated after this turn)'
			});
			await t.commit();
			expect(await npcs.get(t.s.db, 'Bram')).toMatchObject({ appearance: 'tall man, grey beard, red cloak' });
			const orders = await imageOrders.forTarget(t.s.db, 'npc', 'Bram');
			expect(orders).toHaveLength(1);
			expect(orders[0]).toMatchObject({ status: 'pending', turnId: null });
			expect(orders[0]?.prompt).toContain('red cloak');
			expect(orders[0]?.prompt).not.toContain('breastplate');

			const later = t.next();
			expect(
				json(await later.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, red cloak', regenerate: true }))
			).toMatchObject({ registration: 'unchanged', sprite: 'ordered (generated after this turn)' });
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

	it('orders expression sprites under the tag name "Name(expression)", at most four per character, again when the look changes', async () => {
		await withTurn(async (t) => {
			const first = json(
				await t.ok('register_npc', { name: 'Mira', appearance: 'young woman, red scarf', expressions: ['smile', 'angry', 'smile'] })
			);
			expect(first).toMatchObject({ registration: 'created', expression_sprites_ordered: ['smile', 'angry'] });
			const more = json(
				await t.ok('register_npc', {
					name: 'Mira',
					appearance: 'young woman, red scarf',
					expressions: ['sad', 'surprised', 'sleepy', 'smile']
				})
			);
			expect(more).toMatchObject({ registration: 'unchanged', expression_sprites_ordered: ['sad', 'surprised'] });
			expect(String(more.expressions_not_ordered)).toMatch(/^sleepy: a character has at most 4 expression sprites/);
			await t.commit();
			const smile = await imageOrders.forTarget(t.s.db, 'npc', 'Mira(smile)');
			expect(smile).toHaveLength(1);
			expect(smile[0]?.prompt).toMatch(/Character: Mira\. Facial expression and pose: smile\. Appearance: young woman, red scarf/);
			expect(await imageOrders.variantNames(t.s.db, 'mira')).toEqual(['Mira(smile)', 'Mira(angry)', 'Mira(sad)', 'Mira(surprised)']);

			// A new look re-draws every expression with it; the names stay free of tag punctuation.
			const later = t.next();
			expect(json(await later.ok('register_npc', { name: 'Mira', appearance: 'young woman, blue scarf' }))).toMatchObject({
				expression_sprites_ordered: ['smile', 'angry', 'sad', 'surprised']
			});
			const bad = await later.call('register_npc', { name: 'Mira', appearance: 'x', expressions: ['grin)'] });
			expect(bad).toMatchObject({ isError: true });
			expect(bad.content).toMatch(/may not contain @ : \( \)/);
		});
	});

	it('stages the place set_scene registers, with its kind, for the screen', async () => {
		await withTurn(async (t) => {
			await t.ok('set_scene', { name: 'Harbour', description: 'A harbour at dawn, masts and gulls.' });
			await t.ok('set_scene', { name: 'Cellar', description: 'A damp cellar room with barrels.' });
			expect(t.ctx.places).toEqual([
				{ name: 'Harbour', kind: 'street' },
				{ name: 'Cellar', kind: 'interior' }
			]);
			// A refused registration stages nothing.
			await t.call('set_scene', { name: 'Gate', description: '   ' });
			expect(t.ctx.places).toHaveLength(2);
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
	it("keeps the choices to offer (the latest call's), with or without cues", async () => {
		await withTurn(async (t) => {
			expect(json(await t.ok('adv_stage', { choices: ['Ask Sefa  about\nher brother', 'Leave'] }))).toEqual({
				staged: 0,
				cues_this_turn: 0,
				choices_offered: 2
			});
			expect(t.ctx.choices).toEqual(['Ask Sefa about her brother', 'Leave']);
			await t.ok('adv_stage', { cues: [{ paragraph: 0, action: 'enter', character: 'Sefa', slot: 'left' }] });
			expect(t.ctx.choices).toHaveLength(2);
			await t.ok('adv_stage', {
				cues: [{ paragraph: 1, action: 'exit', character: 'Sefa' }],
				choices: ['Follow her', 'Stay', 'Call the watch']
			});
			expect(t.ctx.choices).toEqual(['Follow her', 'Stay', 'Call the watch']);
			expect(t.ctx.cues).toHaveLength(2);
		});
	});

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

	it('takes sound cues: an ambience, none, or an effect; an unknown sound or none at all is refused', async () => {
		await withTurn(async (t) => {
			const cues = [
				{ paragraph: 0, action: 'sound', sound: 'rain' },
				{ paragraph: 1, action: 'sound', sound: 'thunder' },
				{ paragraph: 2, action: 'sound', sound: 'none' }
			];
			expect(json(await t.ok('adv_stage', { cues }))).toEqual({ staged: 3, cues_this_turn: 3 });
			expect(t.ctx.cues).toEqual(cues);
			for (const bad of [
				{ paragraph: 0, action: 'sound', sound: 'trumpet' },
				{ paragraph: 0, action: 'sound' }
			]) {
				expect(await t.call('adv_stage', { cues: [bad] })).toMatchObject({ isError: true });
			}
			expect(t.ctx.cues).toHaveLength(3);
		});
	});

	it('takes music cues naming one of the session’s tracks, none or keep; says so for a name it lacks; refuses one without music', async () => {
		await withTurn(async (t) => {
			await t.s.writes.batch([writeSoundsQuery(t.s.writes, [{ kind: 'music', name: 'Storm at Sea', file: 'a.mp3' }])]);
			const cues = [
				{ paragraph: 0, action: 'music', music: 'storm at sea' },
				{ paragraph: 1, action: 'music', music: 'keep' },
				{ paragraph: 2, action: 'music', music: 'none' }
			];
			expect(json(await t.ok('adv_stage', { cues }))).toEqual({ staged: 3, cues_this_turn: 3 });
			const out = json(await t.ok('adv_stage', { cues: [{ paragraph: 3, action: 'music', music: 'Jazz' }] }));
			expect(out.notes).toEqual(['music "Jazz" is not a track of this world: silence plays; use a listed name']);
			expect(await t.call('adv_stage', { cues: [{ paragraph: 0, action: 'music' }] })).toMatchObject({ isError: true });
			expect(t.ctx.cues).toHaveLength(4);
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
				[{}, /at least one cue/],
				[{ choices: ['Only one'] }, /choices/],
				[{ choices: ['a', 'b', 'c', 'd', 'e'] }, /choices/],
				[{ choices: ['ok', ''] }, /choices\.1/],
				[
					{
						cues: [
							{ paragraph: 0, action: 'exit', character: 'Mira' },
							{ paragraph: 1, action: 'move', character: 'Mira' }
						]
					},
					/cues\.1\.slot/
				]
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

import { describe, expect, it } from 'vitest';
import { imageOrders, npcSpritePrompt, sceneBackgroundPrompt, MAX_PROMPT_CHARS } from '../../../src/lib/server/stage';
import { useTurns } from '../tools/gm/helpers';

const withTurn = useTurns();

const SECRET = 'QUIXOTRYL';

describe('image prompts', () => {
	it('are built from the name and the look alone, in a fixed frame', () => {
		const sprite = npcSpritePrompt({ name: 'Bram', appearance: 'tall man,\n grey beard' });
		expect(sprite).toMatch(/^Full-body character sprite/);
		expect(sprite).toMatch(/Character: Bram\. Appearance: tall man, grey beard$/);
		expect(sceneBackgroundPrompt({ name: 'Gate', description: 'stone gate' })).toMatch(/Place: Gate\. stone gate$/);
		expect(npcSpritePrompt({ name: 'B', appearance: 'x'.repeat(5000) })).toHaveLength(MAX_PROMPT_CHARS);
	});

	it('copy no other field of what they are given', () => {
		const npcWithNotes = { name: 'Bram', appearance: 'grey beard', notes: `secretly ${SECRET}`, truth: SECRET };
		expect(npcSpritePrompt(npcWithNotes)).not.toContain(SECRET);
		const sceneWithPlot = { name: 'Gate', description: 'stone gate', plot: SECRET };
		expect(sceneBackgroundPrompt(sceneWithPlot)).not.toContain(SECRET);
	});

	it('never carry story-DB secrets or GM notes, even when the GM recorded them in the same turn', async () => {
		await withTurn(async (t) => {
			await t.ok('story_advance', {
				action: 'confirm_truth',
				key: 'bram-heir',
				title: 'Bram',
				body: `Bram is the lost heir; his true name is ${SECRET}.`
			});
			await t.ok('story_begin', { type: 'plot', key: 'Bram', body: `Bram betrays the party as ${SECRET}.` });
			await t.ok('memory', { action: 'create', name: 'Bram', body: `Knows the word ${SECRET}.` });
			await t.ok('update_state', { patch: { Bram: SECRET } });
			await t.ok('register_npc', { name: 'Bram', appearance: 'tall man, grey beard, steel breastplate' });
			await t.ok('set_scene', { name: 'Bram', description: 'a gate house with a halberd rack' });
			await t.commit();
			const orders = [...(await imageOrders.forTarget(t.s.db, 'npc', 'Bram')), ...(await imageOrders.forTarget(t.s.db, 'scene', 'Bram'))];
			expect(orders).toHaveLength(2);
			for (const order of orders) {
				expect(order.prompt).toContain('Bram');
				expect(order.prompt).not.toContain(SECRET);
				expect(order.prompt).not.toMatch(/heir|betray/);
			}
		});
	});
});

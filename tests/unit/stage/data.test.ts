import { afterEach, describe, expect, it, vi } from 'vitest';
import { cues, imageOrders, npcs, scenes, StageError } from '../../../src/lib/server/stage';
import type { StageCue } from '../../../src/lib/adv';
import { useSessions, caught } from '../records/helpers';

const withSession = useSessions();

describe('npcs and scenes', () => {
	it('register once, update on a changed look, and report an unchanged one', async () => {
		await withSession(async (s) => {
			expect((await s.write((tx) => npcs.register(tx, { name: ' Bram ', appearance: 'grey  beard' }))).change).toBe('created');
			expect((await s.write((tx) => npcs.register(tx, { name: 'Bram', appearance: 'grey beard\n' }))).change).toBe('unchanged');
			const updated = await s.write((tx) => npcs.register(tx, { name: 'Bram', appearance: 'red cloak' }));
			expect(updated).toMatchObject({ change: 'updated', npc: { name: 'Bram', appearance: 'red cloak' } });
			await s.write((tx) => npcs.setSprite(tx, 'Bram', 'img-1'));
			expect(await npcs.list(s.db)).toEqual([expect.objectContaining({ name: 'Bram', spriteImage: 'img-1' })]);

			expect((await s.write((tx) => scenes.register(tx, { name: 'Gate', description: 'stone gate' }))).change).toBe('created');
			await s.write((tx) => scenes.setBackground(tx, 'Gate', 'img-2'));
			expect(await scenes.get(s.db, 'Gate')).toMatchObject({ description: 'stone gate', backgroundImage: 'img-2' });
		});
	});

	it('refuse empty or multi-line names and empty looks', async () => {
		await withSession(async (s) => {
			for (const input of [
				{ name: ' ', appearance: 'a' },
				{ name: 'A\nB', appearance: 'a' },
				{ name: 'A', appearance: ' \n ' }
			]) {
				expect(await caught(() => s.write((tx) => npcs.register(tx, input)))).toBeInstanceOf(StageError);
			}
			expect(await npcs.list(s.db)).toEqual([]);
		});
	});
});

describe('image orders', () => {
	it('replace a pending order for the same target, are claimed by the turn that placed them, and are listed oldest first', async () => {
		await withSession(async (s) => {
			await s.write(async (tx) => {
				await imageOrders.place(tx, { target: 'npc', targetName: 'Bram', prompt: 'p1' });
				await imageOrders.place(tx, { target: 'scene', targetName: 'Bram', prompt: 'scene' });
				await imageOrders.place(tx, { target: 'npc', targetName: 'Bram', prompt: 'p2' });
				expect(await imageOrders.claimForTurn(tx, 'turn-1')).toBe(2);
			});
			expect((await imageOrders.pending(s.db, 10)).map((o) => [o.target, o.prompt, o.turnId])).toEqual([
				['npc', 'p2', 'turn-1'],
				['scene', 'scene', 'turn-1']
			]);
			// Once an order is running, a new look gets a new order.
			await s.client.execute("UPDATE image_orders SET status = 'running' WHERE target = 'npc'");
			await s.write(async (tx) => {
				await imageOrders.place(tx, { target: 'npc', targetName: 'Bram', prompt: 'p3' });
				expect(await imageOrders.claimForTurn(tx, 'turn-2')).toBe(1);
			});
			expect((await imageOrders.forTarget(s.db, 'npc', 'Bram')).map((o) => [o.status, o.prompt, o.turnId])).toEqual([
				['running', 'p2', 'turn-1'],
				['pending', 'p3', 'turn-2']
			]);
		});
	});
});

describe('stage cues', () => {
	it('are saved per message and read back in play order', async () => {
		await withSession(async (s) => {
			const list: StageCue[] = [
				{ paragraph: 2, action: 'exit', character: 'Bram' },
				{ paragraph: 0, action: 'background', scene: 'Gate' },
				{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left' }
			];
			await s.write(async (tx) => {
				expect(await cues.save(tx, { turnId: 't1', messageId: 7, cues: list })).toBe(3);
				expect(await cues.save(tx, { turnId: 't1', messageId: 8, cues: [] })).toBe(0);
			});
			const rows = await cues.forMessages(s.db, [7, 8, 9]);
			expect(rows.map((r) => [r.messageId, r.paragraph, r.ord])).toEqual([
				[7, 0, 1],
				[7, 0, 2],
				[7, 2, 0]
			]);
			expect(rows.map((r) => r.cue)).toEqual([list[1], list[2], list[0]]);
			expect(await cues.before(s.db, 7)).toEqual([]);
			expect(await cues.before(s.db, 8)).toEqual(rows);
		});
	});

	it('refuse a cue that is not a cue, and leave a stored row that is not one out of every read, with a warning', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
		await withSession(async (s) => {
			const bad = { paragraph: -1, action: 'dance' };
			const err = await caught(() =>
				s.write((tx) => cues.save(tx, { turnId: 't', messageId: 1, cues: [JSON.parse(JSON.stringify(bad))] }))
			);
			expect(err).toBeInstanceOf(Error);
			await s.client.execute(
				`INSERT INTO stage_cues (turn_id, message_id, paragraph, ord, cue) VALUES ('t', 2, 0, 0, '{"paragraph":0,"action":"fly"}')`
			);
			await s.client.execute(
				`INSERT INTO stage_cues (turn_id, message_id, paragraph, ord, cue) VALUES ('t', 2, 0, 1, '{"paragraph":0,"action":"exit","character":"Bram"}')`
			);
			for (const rows of [await cues.forMessages(s.db, [2]), await cues.before(s.db, undefined)]) {
				expect(rows.map((r) => r.cue)).toEqual([{ paragraph: 0, action: 'exit', character: 'Bram' }]);
			}
			expect(warn.mock.calls.some(([m]) => String(m).includes('message 2 is not a cue'))).toBe(true);
		});
	});
});

afterEach(() => {
	vi.restoreAllMocks();
});

import { describe, expect, it } from 'vitest';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import * as records from '../../../src/lib/server/records';
import { choices, cues, imageOrders, npcs, scenes, setOpening } from '../../../src/lib/server/stage';
import { appendEvent } from '../../../src/lib/server/events';
import { logPage, loadPlayView, PLAY_MESSAGE_WINDOW } from '../../../src/lib/server/play';
import { WORLD_SEED_TURN_ID } from '../../../src/lib/server/worlds';
import { useSessions } from '../records/helpers';

const withSession = useSessions();
const { turns } = sessionSchema;

async function turn(
	s: SessionDb,
	id: string,
	status: 'accepted' | 'running' | 'committed' | 'failed',
	extra: { createdAt?: number; leaseExpiresAt?: number; error?: string; errorId?: string } = {}
) {
	await s.write((tx) =>
		tx.insert(turns).values({
			id,
			idempotencyKey: `key-${id}`,
			kind: 'player',
			userId: 'u',
			input: `input of ${id}`,
			status,
			createdAt: extra.createdAt ?? Date.now(),
			leaseExpiresAt: extra.leaseExpiresAt ?? null,
			error: extra.error ?? null,
			...(status === 'failed' ? { failureReason: 'rate_limited' as const, errorId: extra.errorId ?? null } : {})
		})
	);
}

async function exchange(s: SessionDb, turnId: string, reply: string, stage: Parameters<typeof cues.save>[1]['cues'] = []) {
	return s.write(async (tx) => {
		await records.log.append(tx, { role: 'player', body: `input of ${turnId}`, turnId });
		const m = await records.log.append(tx, { role: 'gm', body: reply, turnId });
		await cues.save(tx, { turnId, messageId: m.id, cues: stage });
		return m.id;
	});
}

describe('loadPlayView', () => {
	it('opens with the world scene, folds the cues of messages before the window, and lists the window with its cues', async () => {
		await withSession(async (s) => {
			await s.write(async (tx) => {
				await scenes.register(tx, { name: 'Lantern Inn', description: 'a tavern' });
				await imageOrders.place(tx, { target: 'scene', targetName: 'Lantern Inn', prompt: 'p' });
				await imageOrders.claimForTurn(tx, WORLD_SEED_TURN_ID);
				await setOpening(tx, { scene: 'Lantern Inn', present: [] });
			});
			const empty = (await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' })).log;
			expect(empty.stageBefore.background).toEqual({ scene: 'Lantern Inn' });
			expect(empty.images.scenes).toEqual([{ name: 'Lantern Inn', url: null, status: 'pending', kind: 'interior' }]);

			await exchange(s, 't0', 'Intro.\n\n@Bram: Hi.', [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }]);
			// Enough turns after it that the first one falls out of the window.
			for (let i = 1; i <= PLAY_MESSAGE_WINDOW / 2; i++) await exchange(s, `t${i}`, `Reply ${i}.`);
			await exchange(s, 'tz', 'Last.', [{ paragraph: 0, action: 'move', character: 'Bram', slot: 'right' }]);
			await s.write((tx) => npcs.register(tx, { name: 'Bram', appearance: 'guard' }).then(() => npcs.setSprite(tx, 'Bram', 'k1.png')));

			const view = (await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' })).log;
			expect(view.messages).toHaveLength(PLAY_MESSAGE_WINDOW);
			expect(view.messages.some((m) => m.turnId === 't0')).toBe(false);
			expect(view.stageBefore.slots.left).toEqual({ character: 'Bram' });
			expect(view.stageBefore.background).toEqual({ scene: 'Lantern Inn' });
			expect(view.cues.map((c) => c.cue.action)).toEqual(['move']);
			expect(view.images.characters).toEqual([{ name: 'Bram', url: '/api/v1/sessions/sid/images/k1.png', status: 'ready' }]);

			const after = await logPage(s.db, 'sid', { after: view.messages.at(-3)?.id ?? 0, limit: 200 }, { id: 'viewer', language: 'en' });
			expect(after.messages.map((m) => m.body)).toEqual(['input of tz', 'Last.']);
			expect(after.cues).toHaveLength(1);
		});
	});

	it('gives the turn in flight with exactly the text streamed up to the cursor, and how the last turn ended', async () => {
		await withSession(async (s) => {
			// Whatever text a row holds, a failure reaches the page as its class and error id only.
			await turn(s, 'old', 'failed', { createdAt: 1, error: 'upstream broke', errorId: 'e123456789' });
			const lastTurn = (await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' })).lastTurn;
			expect(lastTurn).toEqual({
				id: 'old',
				input: 'input of old',
				status: 'failed',
				failure: { reason: 'rate_limited', errorId: 'e123456789' },
				stopped: null
			});

			await turn(s, 'live', 'running', { createdAt: 2, leaseExpiresAt: Date.now() + 60_000 });
			await s.write(async (tx) => {
				await appendEvent(tx, { type: 'turn.accepted', turnId: 'live', input: 'x' });
				await appendEvent(tx, { type: 'text.delta', turnId: 'live', text: 'The door ' });
				await appendEvent(tx, { type: 'text.delta', turnId: 'other', text: 'NOT THIS' });
				await appendEvent(tx, {
					type: 'stage.staged',
					turnId: 'live',
					cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }],
					places: [{ name: 'Cellar', kind: 'interior' }]
				});
				await appendEvent(tx, {
					type: 'stage.staged',
					turnId: 'other',
					cues: [{ paragraph: 0, action: 'exit', character: 'Bram' }],
					places: []
				});
				await appendEvent(tx, { type: 'text.delta', turnId: 'live', text: 'creaks.' });
			});
			const view = await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' });
			expect(view.activeTurn).toEqual({
				id: 'live',
				input: 'input of live',
				status: 'running',
				text: 'The door creaks.',
				staged: {
					cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }],
					places: [{ name: 'Cellar', kind: 'interior' }]
				},
				cancelRequested: false
			});
			expect(view.lastTurn).toBeNull();
			expect(view.lastEventId).toBeGreaterThanOrEqual(4);

			// A running turn whose lease ran out is shown as interrupted, not as running.
			await s.client.execute("UPDATE turns SET lease_expires_at = 1 WHERE id = 'live'");
			const stale = await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' });
			expect(stale.activeTurn).toBeNull();
			expect(stale.lastTurn).toMatchObject({ id: 'live', status: 'interrupted' });
		});
	});

	it('offers the latest choices only while the message that offered them is the newest GM message', async () => {
		await withSession(async (s) => {
			const first = await exchange(s, 't1', 'A fork in the road.');
			await s.write((tx) => choices.save(tx, { messageId: first, options: ['Left', 'Right'] }));
			expect((await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' })).choices).toEqual({
				messageId: first,
				options: ['Left', 'Right']
			});
			await exchange(s, 't2', 'You go left.');
			expect((await loadPlayView(s.db, 'sid', { id: 'viewer', language: 'en' })).choices).toBeNull();
		});
	});
});

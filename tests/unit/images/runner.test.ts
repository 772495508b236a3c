import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { sessionSchema } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';
import { EventBus } from '../../../src/lib/server/events';
import { ImageRunner, placeBackdropSvg, imageKey, jobRetryPolicy, silhouetteSvg, IMAGE_FAILED_TEXT } from '../../../src/lib/server/images';
import { decideRetry } from '../../../src/lib/server/retry';
import { imagesHarness, ScriptedProvider, TEST_POLICY, type ImagesHarness } from './helpers';

const { imageOrders } = sessionSchema;
let h: ImagesHarness | undefined;

afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const svgKey = (svg: string) => imageKey(new TextEncoder().encode(svg), 'image/svg+xml');

describe('image job runner', () => {
	it('generates a committed order with the offline provider: stored, set on the NPC and the scene, done, announced', async () => {
		h = await imagesHarness();
		const npcOrder = await h.orderSprite('Bram');
		const sceneOrder = await h.orderBackground('North Gate');
		await h.run();

		const bramKey = svgKey(silhouetteSvg('Bram'));
		const gateKey = svgKey(placeBackdropSvg('North Gate', h.provider.requests.find((r) => r.subject === 'North Gate')?.prompt));
		expect(await h.order(npcOrder)).toMatchObject({ status: 'done', attempts: 1, image: bramKey, error: null, leaseOwner: null });
		expect(await h.order(sceneOrder)).toMatchObject({ status: 'done', attempts: 1, image: gateKey });
		expect(await h.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: bramKey });
		expect(await h.use((s) => stage.scenes.get(s.db, 'North Gate'))).toMatchObject({ backgroundImage: gateKey });
		const stored = await h.app.images.store.get(h.sessionId, bramKey);
		expect(stored?.contentType).toBe('image/svg+xml');
		expect(new TextDecoder().decode(stored?.bytes)).toBe(silhouetteSvg('Bram'));
		// Two jobs of a session run at once: they may finish in either order.
		expect(h.provider.requests.map((r) => [r.kind, r.subject])).toEqual(
			expect.arrayContaining([
				['sprite', 'Bram'],
				['background', 'North Gate']
			])
		);
		expect(h.provider.requests).toHaveLength(2);
		const ready = (await h.events())
			.filter((e) => e.type === 'image.ready')
			.sort((a, b) => ('orderId' in a && 'orderId' in b ? a.orderId - b.orderId : 0));
		expect(ready).toEqual([
			{ type: 'image.ready', orderId: npcOrder, target: 'npc', name: 'Bram', url: `/api/v1/sessions/${h.sessionId}/images/${bramKey}` },
			{
				type: 'image.ready',
				orderId: sceneOrder,
				target: 'scene',
				name: 'North Gate',
				url: `/api/v1/sessions/${h.sessionId}/images/${gateKey}`
			}
		]);
	});

	it('does not start an order whose turn has not committed', async () => {
		h = await imagesHarness();
		const uncommitted = await h.orderSprite('Bram', null);
		await h.run();
		expect(await h.order(uncommitted)).toMatchObject({ status: 'pending', attempts: 0, turnId: null, image: null });
		expect(h.provider.requests).toHaveLength(0);
		// Once the turn commits (claims it) and the runner is kicked, it runs.
		await h.use((s) => s.write((tx) => stage.imageOrders.claimForTurn(tx, 'turn-9')));
		await h.run();
		expect(await h.order(uncommitted)).toMatchObject({ status: 'done', attempts: 1 });
	});

	it('retries a failing job with exponential backoff, then gives up visibly and keeps the previous image', async () => {
		h = await imagesHarness({ steps: ['retryable', 'retryable', 'retryable'] });
		const harness = h;
		const id = await h.orderSprite('Bram');
		await h.use((s) => s.write((tx) => stage.npcs.setSprite(tx, 'Bram', 'placeholder.svg')));
		const base = TEST_POLICY.retryBaseMs ?? 0;
		const start = h.clock.now;

		await h.run();
		expect(await h.order(id)).toMatchObject({
			status: 'pending',
			attempts: 1,
			nextAttemptAt: start + base,
			error: 'image service answered 503',
			leaseOwner: null
		});
		// Not due yet: a kick does nothing.
		h.clock.now = start + base - 1;
		await h.run();
		expect(h.provider.requests).toHaveLength(1);

		h.clock.now = start + base;
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: start + base + 2 * base });
		expect(h.provider.requests).toHaveLength(2);

		h.clock.now = start + 3 * base;
		await h.run();
		const failed = await h.order(id);
		expect(failed).toMatchObject({ status: 'failed', attempts: 3, error: 'image service answered 503', image: null, nextAttemptAt: null });
		expect(h.provider.requests).toHaveLength(3);
		expect(await harness.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: 'placeholder.svg' });
		expect((await h.events()).filter((e) => e.type.startsWith('image.'))).toEqual([
			{ type: 'image.failed', orderId: id, target: 'npc', name: 'Bram', error: IMAGE_FAILED_TEXT }
		]);
		// The service's own words stay on the server (the order row, the log), never in the player's events.
		expect(JSON.stringify(await h.events())).not.toContain('answered 503');
		// Given up for good: later kicks leave it alone.
		h.clock.now += 10 * base;
		await h.run();
		expect(h.provider.requests).toHaveLength(3);
	});

	it('starts afresh when a new look replaces an order that was waiting out its backoff', async () => {
		h = await imagesHarness({ steps: ['retryable'] });
		const id = await h.orderSprite('Bram');
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: expect.any(Number) });
		await h.use((s) =>
			s.write(async (tx) => {
				await stage.imageOrders.place(tx, {
					target: 'npc',
					targetName: 'Bram',
					prompt: stage.npcSpritePrompt({ name: 'Bram', appearance: 'red coat' })
				});
				await stage.imageOrders.claimForTurn(tx, 'turn-2');
			})
		);
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'done', attempts: 1, turnId: 'turn-2', prompt: expect.stringContaining('red coat') });
	});

	it('gives up at once on an error another try cannot fix', async () => {
		h = await imagesHarness({ steps: ['fatal'] });
		const id = await h.orderBackground('Gate');
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'failed', attempts: 1, error: 'image service answered 400: content policy' });
		expect((await h.events()).map((e) => e.type)).toContain('image.failed');
	});

	it("waits out the service's Retry-After when it is longer than the backoff, and gives up when it is past the cap", async () => {
		const base = TEST_POLICY.retryBaseMs ?? 0;
		const cap = TEST_POLICY.retryMaxMs ?? 0;
		h = await imagesHarness({ steps: [{ retryAfterMs: 5 * base }, { retryAfterMs: cap + 1 }] });
		const id = await h.orderSprite('Bram');
		const start = h.clock.now;
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: start + 5 * base });
		h.clock.now = start + 5 * base;
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'failed', attempts: 2, error: 'image service answered 429: slow down' });
		expect(h.provider.requests).toHaveLength(2);
	});

	it('doubles the delay per attempt up to the cap, exactly (no jitter), until the attempts run out', () => {
		const policy = jobRetryPolicy({ maxAttempts: 6, retryBaseMs: 5_000, retryMaxMs: 30_000 });
		const after = (attempts: number) => decideRetry({ retryable: true }, attempts - 1, policy, { random: () => 1 });
		expect([1, 2, 3, 4, 5].map(after)).toEqual([5_000, 10_000, 20_000, 30_000, 30_000].map((delayMs) => ({ retry: true, delayMs })));
		expect(after(6)).toEqual({ retry: false, reason: 'out_of_attempts' });
	});

	it('resumes a job whose runner died (expired lease) after a restart, and leaves one under a live lease alone', async () => {
		h = await imagesHarness();
		const dead = await h.orderSprite('Bram');
		const live = await h.orderSprite('Mira');
		const now = h.clock.now;
		await h.use((s) =>
			s.write(async (tx) => {
				await tx
					.update(imageOrders)
					.set({ status: 'running', attempts: 1, leaseOwner: 'dead-process', leaseExpiresAt: now - 1 })
					.where(eq(imageOrders.id, dead));
				await tx
					.update(imageOrders)
					.set({ status: 'running', attempts: 1, leaseOwner: 'other-process', leaseExpiresAt: now + 30_000 })
					.where(eq(imageOrders.id, live));
			})
		);
		await h.run();
		expect(await h.order(dead)).toMatchObject({ status: 'done', attempts: 2, leaseOwner: null });
		expect(await h.order(live)).toMatchObject({ status: 'running', attempts: 1, leaseOwner: 'other-process' });
		expect(h.provider.requests.map((r) => r.subject)).toEqual(['Bram']);
	});

	it('fails a job whose last attempt was cut off by a dead runner', async () => {
		h = await imagesHarness();
		const id = await h.orderSprite('Bram');
		const now = h.clock.now;
		await h.use((s) =>
			s.write((tx) =>
				tx
					.update(imageOrders)
					.set({ status: 'running', attempts: 3, leaseOwner: 'dead-process', leaseExpiresAt: now - 1 })
					.where(eq(imageOrders.id, id))
			)
		);
		await h.run();
		expect(await h.order(id)).toMatchObject({ status: 'failed', attempts: 3 });
		expect(h.provider.requests).toHaveLength(0);
		expect((await h.events()).map((e) => e.type)).toEqual(['image.failed']);
	});

	it('is idempotent: a job that already has its stored image is finished without generating it again; a done job is not run', async () => {
		h = await imagesHarness();
		const id = await h.orderSprite('Bram');
		const bytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
		const key = imageKey(bytes, 'image/svg+xml');
		await h.app.images.store.put(h.sessionId, key, bytes, 'image/svg+xml');
		const now = h.clock.now;
		// A runner stored the image, noted it on the order, and died before applying it.
		await h.use((s) =>
			s.write((tx) =>
				tx
					.update(imageOrders)
					.set({ status: 'running', attempts: 1, image: key, leaseOwner: 'dead-process', leaseExpiresAt: now - 1 })
					.where(eq(imageOrders.id, id))
			)
		);
		await h.run();
		expect(h.provider.requests).toHaveLength(0);
		expect(await h.order(id)).toMatchObject({ status: 'done', image: key });
		expect(await h.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: key });
		await h.run();
		expect(h.provider.requests).toHaveLength(0);
		expect((await h.events()).filter((e) => e.type === 'image.ready')).toHaveLength(1);
	});

	it('never puts an older look back: an order finishing after a newer one for the same target leaves the newer image', async () => {
		h = await imagesHarness();
		const older = await h.orderSprite('Bram');
		const now = h.clock.now;
		// The older order is mid-run elsewhere; the newer one (a changed look) finishes first.
		await h.use((s) =>
			s.write((tx) =>
				tx
					.update(imageOrders)
					.set({ status: 'running', attempts: 1, leaseOwner: 'slow-process', leaseExpiresAt: now + 1000 })
					.where(eq(imageOrders.id, older))
			)
		);
		const newer = await h.use((s) =>
			s.write(async (tx) => {
				const o = await stage.imageOrders.place(tx, {
					target: 'npc',
					targetName: 'Bram',
					prompt: stage.npcSpritePrompt({ name: 'Bram', appearance: 'red coat' })
				});
				await stage.imageOrders.claimForTurn(tx, 'turn-2');
				return o.id;
			})
		);
		await h.run();
		const newerKey = (await h.order(newer)).image;
		expect(newerKey).toMatch(/\.svg$/);
		// The slow runner's lease runs out; this runner retries the older job, which finishes last.
		h.clock.now = now + 2000;
		await h.run();
		expect(await h.order(older)).toMatchObject({ status: 'done' });
		expect(await h.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: newerKey });
		expect((await h.events()).filter((e) => e.type === 'image.ready').map((e) => ('orderId' in e ? e.orderId : 0))).toEqual([newer]);
	});

	it('stops a deleted session’s running jobs and removes its images', async () => {
		const gate = new Promise<void>(() => undefined);
		h = await imagesHarness({ steps: [{ gate }] });
		const harness = h;
		await h.orderSprite('Bram');
		const done = await h.use(async (s) => {
			const bytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
			await harness.app.images.store.put(s.id, imageKey(bytes, 'image/svg+xml'), bytes, 'image/svg+xml');
			return imageKey(bytes, 'image/svg+xml');
		});
		h.app.images.kick(h.sessionId);
		await waitFor(() => harness.provider.requests.length === 1);
		// The call never answers by itself: deleteSession returns only because it aborts it.
		await h.app.images.deleteSession(h.sessionId);
		expect(await h.app.images.store.get(h.sessionId, done)).toBeUndefined();
		expect(existsSync(path.join(h.app.config.dataDir, 'images', h.sessionId))).toBe(false);
		expect(h.provider.requests).toHaveLength(1);
	});

	it('two runners on the same database never run the same job', async () => {
		h = await imagesHarness({ policy: { jobsPerSession: 3 } });
		const harness = h;
		const ids = [await h.orderSprite('Bram'), await h.orderSprite('Mira'), await h.orderBackground('Gate')];
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const shared = new ScriptedProvider([{ gate }, { gate }, { gate }]);
		// Two runners with their own owner ids, as two processes would have. They share one database
		// handle: two handles on one file in one process block each other in SQLite's synchronous busy wait.
		const runner = () =>
			new ImageRunner({
				sessions: harness.app.sessions,
				bus: new EventBus(),
				provider: shared,
				store: harness.app.images.store,
				policy: { jobsPerSession: 3 },
				now: () => harness.clock.now
			});
		const runners = [runner(), runner()];
		try {
			for (const r of runners) r.kick(harness.sessionId);
			for (const r of runners) r.kick(harness.sessionId);
			// Each job is claimed by exactly one runner, which then waits at the gate.
			await waitFor(() => shared.requests.length === ids.length);
			release();
			await Promise.all(runners.map((r) => r.idle()));
			expect(shared.requests.map((r) => r.subject).sort()).toEqual(['Bram', 'Gate', 'Mira']);
			for (const id of ids) expect(await harness.order(id)).toMatchObject({ status: 'done', attempts: 1 });
		} finally {
			release();
			await Promise.all(runners.map((r) => r.stop()));
		}
	});
});

/** Waits for a condition the runners reach on their own (no timing is asserted). */
async function waitFor(condition: () => boolean): Promise<void> {
	for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
	if (!condition()) throw new Error('condition not reached');
}

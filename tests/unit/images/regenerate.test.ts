/**
 * Hand-made image regeneration: its own daily allowance per user (429 with the reset time once
 * spent), repeated orders for a target already waiting coalesce into that order, and only images
 * that were actually generated are charged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApp, setAppForTests, type App } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { createUser, setTier, type AuthUser } from '../../../src/lib/server/auth';
import { createPlaySession } from '../../../src/lib/server/sessions';
import * as stage from '../../../src/lib/server/stage';
import { regenerateImage, RegenerationLimitError } from '../../../src/lib/server/images';
import * as regenerateRoute from '../../../src/routes/api/v1/sessions/[id]/images/regenerate/+server';
import { tempDir } from '../../helpers/env';
import { ScriptedProvider, type Step } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const PRICE_MICROS = 40_000;

interface Setup {
	app: App;
	alice: AuthUser;
	sessionId: string;
	provider: ScriptedProvider;
	orders(): Promise<(typeof sessionSchema.imageOrders.$inferSelect)[]>;
	charged(): Promise<{ calls: number; costMicros: number }>;
}

async function setup(env: Record<string, string>, steps: Step[] = []): Promise<Setup> {
	const { dir, remove } = tempDir();
	const provider = new ScriptedProvider(steps);
	const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir, KANTERA_IMAGE_PRICE_USD: '0.04', ...env }), {
		images: { provider, policy: { maxAttempts: 1 } }
	});
	cleanups.push(async () => {
		setAppForTests(undefined);
		await app.close();
		remove();
	});
	// Regeneration by hand is a plus feature (the free tier's refusal is tested in tiers.test.ts).
	const created = await createUser(app, { name: 'alice', password: 'correct horse battery staple' }, { viaOperator: true });
	const alice = (await setTier(app, created.id, 'plus')) ?? created;
	const { id: sessionId } = await createPlaySession(app, { ownerId: alice.id, title: 'Gate' });
	await app.sessions.use(sessionId, (s) =>
		s.write(async (tx) => {
			for (const name of ['Bram', 'Ana', 'Cole', 'Dara']) await stage.npcs.register(tx, { name, appearance: 'grey cloak' });
		})
	);
	return {
		app,
		alice,
		sessionId,
		provider,
		orders: () => app.sessions.use(sessionId, (s) => s.db.select().from(sessionSchema.imageOrders)),
		async charged() {
			const [row] = await app.control.db
				.select()
				.from(controlSchema.usageSession)
				.where(eq(controlSchema.usageSession.sessionId, sessionId));
			return { calls: row?.calls ?? 0, costMicros: row?.costMicros ?? 0 };
		}
	};
}

function postRegenerate(t: Setup, body: unknown): Promise<Response> {
	setAppForTests(t.app);
	const url = new URL(`http://kantera.test/api/v1/sessions/${t.sessionId}/images/regenerate`);
	const request = new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return regenerateRoute.POST({ request, url, params: { id: t.sessionId }, locals: { user: t.alice } });
}

describe('regenerating an image by hand', () => {
	it('has a daily allowance per user: over it, 429 with the reset time, and nothing is ordered', async () => {
		const t = await setup({ KANTERA_IMAGE_REGENERATIONS_PER_DAY: '3' });
		for (const name of ['Bram', 'Ana', 'Cole']) expect((await postRegenerate(t, { target: 'npc', name })).status).toBe(202);
		await t.app.images.idle();

		const refused = await postRegenerate(t, { target: 'npc', name: 'Dara' });
		expect(refused.status).toBe(429);
		const tomorrow = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString();
		expect(await refused.json()).toEqual({ message: expect.stringMatching(/3 images/), code: 'REGENERATION_LIMIT', resetsAt: tomorrow });
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		await expect(regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Dara' })).rejects.toBeInstanceOf(
			RegenerationLimitError
		);
		expect((await t.orders()).map((o) => o.targetName)).toEqual(['Bram', 'Ana', 'Cole']);
	});

	it('coalesces repeated orders for a target whose order still waits, and charges the one image generated', async () => {
		let open: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const t = await setup({ KANTERA_IMAGE_REGENERATIONS_PER_DAY: '3' }, [{ gate }]);
		const first = await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' });
		const again = await Promise.all(
			Array.from({ length: 40 }, () => regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' }))
		);
		expect(new Set(again.map((o) => o.id))).toEqual(new Set([first.id]));
		expect(await t.orders()).toHaveLength(1);
		open();
		await t.app.images.idle();
		expect(t.provider.requests).toHaveLength(1);
		expect(await t.charged()).toEqual({ calls: 1, costMicros: PRICE_MICROS });
		// Waiting orders used one regeneration of the allowance of three: two more are left.
		expect((await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' })).id).not.toBe(first.id);
		await expect(regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Ana' })).resolves.toBeDefined();
		await expect(regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Cole' })).rejects.toBeInstanceOf(
			RegenerationLimitError
		);
	});

	it('charges nothing for an image the service failed to generate', async () => {
		const t = await setup({}, ['fatal']);
		await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' });
		await t.app.images.idle();
		expect((await t.orders())[0]).toMatchObject({ status: 'failed' });
		expect(await t.charged()).toEqual({ calls: 0, costMicros: 0 });
	});
});

/**
 * Image jobs with the rest of the app: real turns over the mock LLM ordering images from the same mock
 * vendor's OpenAI images endpoint, the serving route, hand-made orders under the
 * budget guard, and session deletion.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createApp, setAppForTests, type App } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { createPlaySession, deletePlaySession, PlaySessionNotFoundError } from '../../../src/lib/server/sessions';
import { BudgetExceededError } from '../../../src/lib/server/budget';
import * as stage from '../../../src/lib/server/stage';
import { ImageJobError, imageKey, regenerateImage, SVG_CONTENT_SECURITY_POLICY } from '../../../src/lib/server/images';
import * as imageRoute from '../../../src/routes/api/v1/sessions/[id]/images/[key]/+server';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { startMockLlm, TINY_PNG_BASE64 } from '../../mock-llm';

const SECRET = 'QUIXOTRYL';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('images ordered by turns', () => {
	it('reach the image service after the commit with prompts free of story-DB secrets, are metered, and set the stage', async () => {
		// The image service is a mock vendor of its own, as it is a server of its own in production. Sharing the
		// LLM's mock, an image request on a loaded machine once failed with "fetch failed" (both clients' sockets
		// in one pool): a retryable failure the job retries after its backoff, i.e. after this test looks.
		const service = await startMockLlm();
		cleanups.push(() => service.close());
		const h: TurnHarness = await turnHarness('openai', {
			KANTERA_IMAGES: 'openai',
			KANTERA_IMAGES_BASE_URL: service.openaiBaseUrl,
			KANTERA_IMAGES_MODEL: 'test-image',
			KANTERA_IMAGES_API_KEY: 'sk-img'
		});
		cleanups.push(() => h.cleanup());
		const images = service.images.requests;
		const secretCalls = [
			{
				name: 'story_advance',
				arguments: { action: 'confirm_truth', key: 'bram-heir', title: 'Bram', body: `Bram is the lost heir; his true name is ${SECRET}.` }
			},
			{ name: 'story_begin', arguments: { type: 'plot', key: 'Bram', body: `Bram betrays the party as ${SECRET}.` } },
			{ name: 'memory', arguments: { action: 'create', name: 'Bram', body: `Knows the word ${SECRET}.` } },
			{ name: 'register_npc', arguments: { name: 'Bram', appearance: 'tall man, grey beard, steel breastplate' } },
			{ name: 'set_scene', arguments: { name: 'North Gate', description: 'massive stone gate, torches, light snow, dusk' } }
		];
		// A failed turn orders nothing: the image service hears nothing.
		h.mock.script([{ toolCalls: secretCalls }, { fault: { kind: 'status', status: 503 }, times: 3 }]);
		expect((await h.play('who guards the gate?')).status).toBe('failed');
		expect(images).toHaveLength(0);

		h.mock.script([{ toolCalls: secretCalls }, { text: 'Bram steps out of the snow.' }]);
		const turn = await h.play('who guards the gate?');
		expect(turn.status).toBe('committed');
		// The secrets are in the story DB and the GM's notes…
		const recorded = await h.use(async (s) =>
			JSON.stringify([await s.db.select().from(sessionSchema.storyEntries), await s.db.select().from(sessionSchema.memoryNotes)])
		);
		expect(recorded.split(SECRET).length - 1).toBe(3);
		// …and in none of the requests the image service received.
		expect(images).toHaveLength(2);
		for (const request of images) {
			const sent = JSON.stringify(request);
			expect(sent).not.toContain(SECRET);
			expect(sent).not.toMatch(/heir|betray/);
			expect(request.headers['authorization']).toBe('Bearer sk-img');
		}
		const bodies = images.map((r) => r.body);
		expect(bodies).toContainEqual(
			expect.objectContaining({
				model: 'test-image',
				prompt: expect.stringContaining('Appearance: tall man, grey beard, steel breastplate')
			})
		);
		expect(bodies).toContainEqual(expect.objectContaining({ prompt: expect.stringContaining('Place: North Gate.') }));

		const pngKey = imageKey(new Uint8Array(Buffer.from(TINY_PNG_BASE64, 'base64')), 'image/png');
		expect(await h.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: pngKey });
		expect(await h.use((s) => stage.scenes.get(s.db, 'North Gate'))).toMatchObject({ backgroundImage: pngKey });
		expect((await h.app.images.store.get(h.sessionId, pngKey))?.contentType).toBe('image/png');
		// Both images are charged to the turn's player at the default OpenAI price (the mock model itself is unpriced).
		const [usage] = await h.app.control.db
			.select()
			.from(controlSchema.usageSession)
			.where(eq(controlSchema.usageSession.sessionId, h.sessionId));
		expect(usage?.costMicros).toBe(2 * 40_000);
	});
});

interface AppWithUsers {
	app: App;
	alice: AuthUser;
	bob: AuthUser;
	sessionId: string;
}

async function appWithUsers(env: Record<string, string> = {}): Promise<AppWithUsers> {
	const { dir, remove } = tempDir();
	const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir, ...env }));
	cleanups.push(async () => {
		setAppForTests(undefined);
		await app.close();
		remove();
	});
	const alice = await createUser(app, { name: 'alice', password: 'correct horse battery staple' }, { viaOperator: true });
	const bob = await createUser(app, { name: 'bob', password: 'correct horse battery staple' }, { viaOperator: true });
	const session = await createPlaySession(app, { ownerId: alice.id, title: 'Gate' });
	return { app, alice, bob, sessionId: session.id };
}

function getImage(user: AuthUser | null, id: string, key: string): Promise<Response> {
	const url = new URL(`http://kantera.test/api/v1/sessions/${id}/images/${key}`);
	return imageRoute.GET({ request: new Request(url), url, params: { id, key }, locals: { user } });
}

describe('GET /api/v1/sessions/{id}/images/{key}', () => {
	it('serves the owner’s image with its type, immutable private caching, nosniff and a script-free policy for SVG; 404 otherwise', async () => {
		const t = await appWithUsers();
		setAppForTests(t.app);
		const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
		const svgKey = imageKey(svg, 'image/svg+xml');
		const png = new Uint8Array(Buffer.from(TINY_PNG_BASE64, 'base64'));
		const pngKey = imageKey(png, 'image/png');
		await t.app.images.store.put(t.sessionId, svgKey, svg, 'image/svg+xml');
		await t.app.images.store.put(t.sessionId, pngKey, png, 'image/png');

		const ok = await getImage(t.alice, t.sessionId, svgKey);
		expect(ok.status).toBe(200);
		expect(Object.fromEntries(ok.headers)).toMatchObject({
			'content-type': 'image/svg+xml',
			'cache-control': 'private, max-age=31536000, immutable',
			'x-content-type-options': 'nosniff',
			'content-security-policy': SVG_CONTENT_SECURITY_POLICY
		});
		expect(new Uint8Array(await ok.arrayBuffer())).toEqual(svg);
		const raster = await getImage(t.alice, t.sessionId, pngKey);
		expect(raster.headers.get('content-type')).toBe('image/png');
		expect(raster.headers.get('content-security-policy')).toBeNull();
		expect(Buffer.from(await raster.arrayBuffer()).toString('base64')).toBe(TINY_PNG_BASE64);

		for (const [user, id, key] of [
			[t.bob, t.sessionId, svgKey],
			[t.alice, t.sessionId, 'ffffffffffffffffffffffffffffffff.svg'],
			[t.alice, t.sessionId, '..%2F..%2Fcontrol.db'],
			[t.alice, t.sessionId, '../../control.db'],
			[t.alice, 'not-a-session', svgKey]
		] as const) {
			const res = await getImage(user, id, key);
			expect(res.status).toBe(404);
			expect(res.headers.get('content-type')).toBe('application/json');
		}
		expect((await getImage(null, t.sessionId, svgKey)).status).toBe(401);
	});

	it('stops serving a session’s images once the session is deleted (files removed)', async () => {
		const t = await appWithUsers();
		setAppForTests(t.app);
		const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
		const key = imageKey(svg, 'image/svg+xml');
		await t.app.images.store.put(t.sessionId, key, svg, 'image/svg+xml');
		await deletePlaySession(t.app, t.alice.id, t.sessionId);
		expect(existsSync(path.join(t.app.config.dataDir, 'images', t.sessionId))).toBe(false);
		expect(await t.app.images.store.get(t.sessionId, key)).toBeUndefined();
	});
});

describe('regenerateImage', () => {
	it('places a committed order, generates it, and charges it; refuses once the day budget is used, placing nothing', async () => {
		const t = await appWithUsers({ KANTERA_IMAGE_PRICE_USD: '0.03', KANTERA_BUDGET_USER_DAY_USD: '0.05' });
		await t.app.sessions.use(t.sessionId, (s) => s.write((tx) => stage.npcs.register(tx, { name: 'Bram', appearance: 'grey beard' })));

		const first = await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: ' Bram ' });
		expect(first).toMatchObject({ target: 'npc', targetName: 'Bram', status: 'pending', turnId: expect.stringMatching(/^manual:/) });
		await t.app.images.idle();
		const orders = () => t.app.sessions.use(t.sessionId, (s) => s.db.select().from(sessionSchema.imageOrders));
		expect(await orders()).toEqual([expect.objectContaining({ id: first.id, status: 'done', image: expect.stringMatching(/\.svg$/) })]);
		await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' });
		await t.app.images.idle();

		const refused = await regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: 'Bram' }).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(BudgetExceededError);
		expect(refused).toMatchObject({ scope: 'user_day' });
		expect(await orders()).toHaveLength(2);
		const [usage] = await t.app.control.db
			.select()
			.from(controlSchema.usageSession)
			.where(eq(controlSchema.usageSession.sessionId, t.sessionId));
		expect(usage).toMatchObject({ calls: 2, costMicros: 60_000 });
	});

	it('refuses an unknown name, bad input and another user’s session', async () => {
		const t = await appWithUsers();
		await expect(regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'scene', name: 'Nowhere' })).rejects.toMatchObject({
			code: 'not_found'
		});
		await expect(regenerateImage(t.app, t.sessionId, t.alice.id, { target: 'npc', name: '' })).rejects.toBeInstanceOf(ImageJobError);
		await t.app.sessions.use(t.sessionId, (s) => s.write((tx) => stage.scenes.register(tx, { name: 'Gate', description: 'stone gate' })));
		await expect(regenerateImage(t.app, t.sessionId, t.bob.id, { target: 'scene', name: 'Gate' })).rejects.toBeInstanceOf(
			PlaySessionNotFoundError
		);
		expect(await t.app.sessions.use(t.sessionId, (s) => s.db.select().from(sessionSchema.imageOrders))).toEqual([]);
	});
});

/** Starting a session from an official world through the API. */
import { afterEach, describe, expect, it } from 'vitest';
import { apiHarness, type ApiHarness } from './client';
import { bodyOf, Session } from './shapes';
import { readMission } from '../../../src/lib/server/session-setup';
import { documents, story } from '../../../src/lib/server/records';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

describe('worlds', () => {
	it('lists the official worlds per language and refuses an unknown language', async () => {
		h = await apiHarness();
		const api = h.as(h.alice);
		const ja: unknown = await (await api.get('/api/v1/worlds?language=ja')).json();
		expect(ja).toMatchObject({ worlds: [{ id: 'sword-and-sorcery' }, { id: 'iron-walkers' }] });
		expect((await api.get('/api/v1/worlds?language=fr')).status).toBe(400);
		expect((await h.as(null).get('/api/v1/worlds')).status).toBe(401);
	});

	it('a session started from a world has its documents, secrets only for the GM, and the world in its mission', async () => {
		h = await apiHarness();
		const { app } = h;
		const api = h.as(h.alice);
		const res = await api.post('/api/v1/sessions', { world: 'iron-walkers', language: 'en' });
		expect(res.status).toBe(201);
		const s = await bodyOf(res, Session);
		expect(s.title).toMatch(/Iron Walkers/);
		const listed: unknown = await (await api.get(`/api/v1/sessions/${s.id}/documents`)).json();
		const titles = JSON.stringify(listed);
		expect(titles).toMatch(/World setting|Premise/i);
		expect(titles).not.toMatch(/GM Notes/);
		const inside = await app.sessions.use(s.id, async (db) => ({
			mission: await readMission(db.db),
			gmDocs: (await documents.list(db.db, { includeGmOnly: true })).filter((d) => d.gmOnly).length,
			truths: (await story.read(db.db, { type: 'truth' })).length
		}));
		expect(inside.gmDocs).toBeGreaterThan(0);
		expect(inside.truths).toBeGreaterThan(0);
		expect(inside.mission).toMatch(/This world's GM behaviour/);
		expect((await api.post('/api/v1/sessions', { world: 'atlantis' })).status).toBe(400);
	});
});

describe('world images', () => {
	it('draws the seeded NPCs and opening scene at once, and regenerates one by hand', async () => {
		h = await apiHarness({ tier: 'plus' });
		const { app } = h;
		const api = h.as(h.alice);
		const s = await bodyOf(await api.post('/api/v1/sessions', { world: 'sword-and-sorcery', language: 'ja' }), Session);
		await app.images.idle();
		const { npcs, scenes } = await import('../../../src/lib/server/stage');
		const drawn = await app.sessions.use(s.id, async (db) => ({ npcs: await npcs.list(db.db), scenes: await scenes.list(db.db) }));
		expect(drawn.npcs.length).toBeGreaterThan(0);
		expect(drawn.npcs.every((n) => n.spriteImage)).toBe(true);
		expect(drawn.scenes.every((sc) => sc.backgroundImage)).toBe(true);
		const first = drawn.npcs[0];
		const res = await api.post(`/api/v1/sessions/${s.id}/images/regenerate`, { target: 'npc', name: first?.name ?? '' });
		expect(res.status).toBe(202);
		expect((await api.post(`/api/v1/sessions/${s.id}/images/regenerate`, { target: 'npc', name: 'Nobody' })).status).toBe(404);
		expect((await api.post(`/api/v1/sessions/${s.id}/images/regenerate`, { target: 'ghost', name: 'x' })).status).toBe(400);
		expect((await h.as(h.bob).post(`/api/v1/sessions/${s.id}/images/regenerate`, { target: 'npc', name: first?.name ?? '' })).status).toBe(
			404
		);
		await app.images.idle();
	});
});

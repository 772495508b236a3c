/** Sessions through the API: create/list/get/patch/delete, validation, ownership, and the no-LLM status. */
import { afterEach, describe, expect, it } from 'vitest';
import { apiHarness, waitForTurn, type ApiHarness } from './client';
import { bodyOf, ErrorBody, Session, SessionList, Status } from './shapes';
import { readMission, readSettings, composeMission } from '../../../src/lib/server/session-setup';
import { LLM_SETUP_HINT } from '../../../src/lib/server/config';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

async function harness(opts: Parameters<typeof apiHarness>[0] = {}): Promise<ApiHarness> {
	h = await apiHarness(opts);
	return h;
}

describe('POST /api/v1/sessions', () => {
	it('creates the session with its pinned mission and settings (201)', async () => {
		const { app, alice, as } = await harness();
		const res = await as(alice).post('/api/v1/sessions', { title: '  霧の港  ', language: 'ja' });
		expect(res.status).toBe(201);
		const s = await bodyOf(res, Session);
		expect(s).toMatchObject({
			title: '霧の港',
			language: 'ja',
			provider: 'openai',
			model: 'mock-model',
			lastEventId: 0,
			llm: { configured: true }
		});
		expect(res.headers.get('location')).toBe(`/api/v1/sessions/${s.id}`);
		expect(res.headers.get('cache-control')).toBe('no-store');
		const stored = await app.sessions.use(s.id, async (db) => ({
			mission: await readMission(db.db),
			settings: await readSettings(db.db, app.config)
		}));
		expect(stored.mission).toBe(composeMission('ja'));
		expect(stored.settings).toEqual({ language: 'ja', provider: 'openai', model: 'mock-model' });
	});

	it('defaults the title and language', async () => {
		const { alice, as } = await harness();
		const s = await bodyOf(await as(alice).post('/api/v1/sessions', {}), Session);
		expect(s).toMatchObject({ title: 'New session', language: 'en' });
	});

	it('takes a provider and model the server can reach, refuses one it cannot', async () => {
		const { alice, as } = await harness({ tier: 'plus' });
		const ok = await as(alice).post('/api/v1/sessions', { provider: 'openai', model: 'other-model' });
		expect(ok.status).toBe(201);
		expect(await bodyOf(ok, Session)).toMatchObject({ provider: 'openai', model: 'other-model' });
		const refused = await as(alice).post('/api/v1/sessions', { provider: 'anthropic', model: 'claude-x' });
		expect(refused.status).toBe(400);
		expect(await bodyOf(refused, ErrorBody)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
		const list = await bodyOf(await as(alice).get('/api/v1/sessions'), SessionList);
		expect(list.sessions).toHaveLength(1);
	});

	it('answers 400 for malformed JSON and invalid bodies, 415 for another content type, and creates nothing', async () => {
		const { alice, as } = await harness();
		const api = as(alice);
		const malformed = await api.post('/api/v1/sessions', '{"title": "unterminated');
		expect(malformed.status).toBe(400);
		expect(await bodyOf(malformed, ErrorBody)).toMatchObject({ code: 'MALFORMED_JSON' });
		for (const body of [
			[],
			'null',
			{ title: 42 },
			{ language: 'fr' },
			{ title: '' },
			{ title: 'x'.repeat(101) },
			{ provider: 'gemini' },
			{ colour: 'blue' }
		]) {
			const res = await api.post('/api/v1/sessions', body);
			expect(res.status, JSON.stringify(body)).toBe(400);
			const err = await bodyOf(res, ErrorBody);
			expect(err.code).toBe('INVALID_BODY');
			expect(err.message.length).toBeGreaterThan(5);
		}
		const form = await api.post('/api/v1/sessions', 'title=x', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expect(form.status).toBe(415);
		expect((await bodyOf(await api.get('/api/v1/sessions'), SessionList)).sessions).toEqual([]);
	});

	it('answers 401 without a user', async () => {
		const { as } = await harness();
		const res = await as(null).post('/api/v1/sessions', {});
		expect(res.status).toBe(401);
		expect(await bodyOf(res, ErrorBody)).toMatchObject({ code: 'UNAUTHENTICATED' });
		expect((await as(null).get('/api/v1/sessions')).status).toBe(401);
	});
});

describe('GET/PATCH/DELETE /api/v1/sessions/{id}', () => {
	it('lists only the user’s sessions; reads, renames and deletes one', async () => {
		const { alice, bob, as } = await harness();
		const a = await bodyOf(await as(alice).post('/api/v1/sessions', { title: 'Alice’s' }), Session);
		await as(bob).post('/api/v1/sessions', { title: 'Bob’s' });
		const list = await bodyOf(await as(alice).get('/api/v1/sessions'), SessionList);
		expect(list.sessions.map((s) => s.title)).toEqual(['Alice’s']);

		expect(await bodyOf(await as(alice).get(`/api/v1/sessions/${a.id}`), Session)).toMatchObject({ id: a.id, title: 'Alice’s' });
		const renamed = await as(alice).patch(`/api/v1/sessions/${a.id}`, { title: 'Renamed' });
		expect(renamed.status).toBe(200);
		expect(await bodyOf(renamed, Session)).toMatchObject({ title: 'Renamed' });

		const deleted = await as(alice).delete(`/api/v1/sessions/${a.id}`);
		expect(deleted.status).toBe(204);
		expect((await as(alice).get(`/api/v1/sessions/${a.id}`)).status).toBe(404);
	});

	it('stores a new model; refuses a language change (pinned in the mission) and an empty patch', async () => {
		const { app, alice, as } = await harness({ tier: 'plus' });
		const api = as(alice);
		const s = await bodyOf(await api.post('/api/v1/sessions', { language: 'en' }), Session);
		const changed = await api.patch(`/api/v1/sessions/${s.id}`, { model: 'bigger-model' });
		expect(await bodyOf(changed, Session)).toMatchObject({ provider: 'openai', model: 'bigger-model' });
		expect(await app.sessions.use(s.id, (db) => readSettings(db.db, app.config))).toMatchObject({ model: 'bigger-model' });

		const language = await api.patch(`/api/v1/sessions/${s.id}`, { language: 'ja' });
		expect(language.status).toBe(409);
		expect(await bodyOf(language, ErrorBody)).toMatchObject({ code: 'LANGUAGE_PINNED' });
		expect((await api.patch(`/api/v1/sessions/${s.id}`, { language: 'en' })).status).toBe(200);
		expect(await app.sessions.use(s.id, (db) => readMission(db.db))).toBe(composeMission('en'));

		expect((await api.patch(`/api/v1/sessions/${s.id}`, {})).status).toBe(400);
		expect((await api.patch(`/api/v1/sessions/${s.id}`, { provider: 'anthropic' })).status).toBe(400);
	});

	it('answers another user’s session exactly like a missing one (404), and leaves it alone', async () => {
		const { alice, bob, as } = await harness();
		const s = await bodyOf(await as(alice).post('/api/v1/sessions', { title: 'Mine' }), Session);
		const missing = await as(bob).get('/api/v1/sessions/0123456789abcdef0123456789');
		const missingBody = await bodyOf(missing, ErrorBody);
		for (const res of [
			await as(bob).get(`/api/v1/sessions/${s.id}`),
			await as(bob).patch(`/api/v1/sessions/${s.id}`, { title: 'Stolen' }),
			await as(bob).delete(`/api/v1/sessions/${s.id}`)
		]) {
			expect(res.status).toBe(404);
			expect(await bodyOf(res, ErrorBody)).toEqual(missingBody);
		}
		expect(await bodyOf(await as(alice).get(`/api/v1/sessions/${s.id}`), Session)).toMatchObject({ title: 'Mine' });
	});
});

describe('no LLM configured', () => {
	it('says so on /api/v1/status and in sessions, still creates sessions, and answers turns with 503 and the setup hint', async () => {
		const { alice, as } = await harness({ llm: false });
		const status = await bodyOf(await as(null).get('/api/v1/status'), Status);
		expect(status.llm.configured).toBe(false);
		if (!status.llm.configured) expect(status.llm.hint).toContain(LLM_SETUP_HINT);

		const created = await as(alice).post('/api/v1/sessions', { title: 'Waiting for a key' });
		expect(created.status).toBe(201);
		const s = await bodyOf(created, Session);
		expect(s.provider).toBeUndefined();
		expect(s.llm).toMatchObject({ configured: false });

		const turn = await as(alice).post(`/api/v1/sessions/${s.id}/turns`, { text: 'Hello?', idempotencyKey: 'key-00000001' });
		expect(turn.status).toBe(503);
		const err = await bodyOf(turn, ErrorBody);
		expect(err.code).toBe('LLM_NOT_CONFIGURED');
		expect(err.hint).toBe(LLM_SETUP_HINT);
		expect(err.message).toContain('No LLM provider is configured');

		const refused = await as(alice).post('/api/v1/sessions', { provider: 'openai', model: 'x' });
		expect(refused.status).toBe(400);
	});

	it('reports the provider and model when one is configured', async () => {
		const { as } = await harness();
		expect(await bodyOf(await as(null).get('/api/v1/status'), Status)).toEqual({
			llm: { configured: true, provider: 'openai', model: 'mock-model' }
		});
	});
});

describe('PATCH provider/model in a session with history', () => {
	it('runs a handoff turn by the current model, then the new model takes over', async () => {
		const { app, alice, as, mock } = await harness({ tier: 'plus' });
		const api = as(alice);
		const s = await bodyOf(await api.post('/api/v1/sessions', {}), Session);
		mock?.script([{ text: 'You enter the tavern.' }, { text: '## Current scene\nThe tavern.' }, { text: 'The other model speaks.' }]);
		const t = await api.post(`/api/v1/sessions/${s.id}/turns`, { text: 'I enter', idempotencyKey: 'handoff-api-1' });
		const { turnId } = (await t.json()) as { turnId: string };
		await waitForTurn(api, s.id, turnId);
		const patched = await api.patch(`/api/v1/sessions/${s.id}`, { model: 'second-model' });
		expect(patched.status).toBe(200);
		const body: unknown = await patched.json();
		expect(body).toMatchObject({ model: 'mock-model', handoffTurnId: expect.any(String) });
		await app.runner.idle();
		const after = await bodyOf(await api.get(`/api/v1/sessions/${s.id}`), Session);
		expect(after.model).toBe('second-model');
		expect(mock?.requests[1]?.openai?.model).toBe('mock-model');
		const t2 = await api.post(`/api/v1/sessions/${s.id}/turns`, { text: 'I sit down', idempotencyKey: 'handoff-api-2' });
		await waitForTurn(api, s.id, ((await t2.json()) as { turnId: string }).turnId);
		expect(mock?.requests[2]?.openai?.model).toBe('second-model');
	});
});

/**
 * Tiers through the API: the free tier's daily turn quota, fixed model (switching refused with a clear
 * message) and no hand-made regeneration; plus has none of these limits. The play screen's plan (turns left
 * today) comes with the session. Every call of a turn lands in the operator's call log, metadata only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, Session } from './shapes';
import { setTier } from '../../../src/lib/server/auth';
import { controlSchema } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

let keySeq = 0;
const key = () => `tier-key-${String(++keySeq).padStart(6, '0')}`;

async function newSession(api: Caller, body: Record<string, unknown> = {}): Promise<string> {
	const res = await api.post('/api/v1/sessions', { title: 'The harbour', ...body });
	expect(res.status).toBe(201);
	return (await bodyOf(res, Session)).id;
}

async function play(api: Caller, id: string, text: string) {
	const res = await api.post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey: key() });
	if (res.status !== 202) return res;
	await waitForTurn(api, id, (await bodyOf(res, AcceptedTurn)).turnId);
	return res;
}

describe('the free tier', () => {
	it('has a daily turn quota, and the session says how many turns are left', async () => {
		h = await apiHarness({ env: { KANTERA_FREE_TURNS_PER_DAY: '2' } });
		const { alice, as, mock } = h;
		mock?.setHandler(() => ({ text: 'The tide turns.' }));
		const api = as(alice);
		const id = await newSession(api);
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session)).plan).toMatchObject({
			tier: 'free',
			turnsLimit: 2,
			turnsUsed: 0,
			turnsLeft: 2
		});
		expect((await play(api, id, 'one')).status).toBe(202);
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session)).plan.turnsLeft).toBe(1);
		expect((await play(api, id, 'two')).status).toBe(202);
		const refused = await play(api, id, 'three');
		expect(refused.status).toBe(429);
		expect(await bodyOf(refused, ErrorBody)).toMatchObject({ code: 'QUOTA_EXCEEDED' });
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session)).plan.turnsLeft).toBe(0);
	});

	it('plays the operator’s free model; choosing another is refused with a message saying so', async () => {
		h = await apiHarness({ env: { KANTERA_FREE_MODEL: 'free-model' } });
		const { alice, as } = h;
		const api = as(alice);
		const created = await api.post('/api/v1/sessions', { provider: 'openai', model: 'other-model' });
		expect(created.status).toBe(403);
		const body = await bodyOf(created, ErrorBody);
		expect(body.code).toBe('MODEL_FIXED');
		expect(body.message).toMatch(/free tier.*openai\/free-model.*plus tier/);
		const id = await newSession(api);
		const session = await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session);
		expect(session).toMatchObject({
			provider: 'openai',
			model: 'free-model',
			plan: { modelChoice: false, fixedModel: { provider: 'openai', model: 'free-model' } }
		});
		const patched = await api.patch(`/api/v1/sessions/${id}`, { model: 'other-model' });
		expect(patched.status).toBe(403);
		expect(await bodyOf(patched, ErrorBody)).toMatchObject({ code: 'MODEL_FIXED' });
		// Naming the fixed model itself is no switch and passes.
		expect((await api.patch(`/api/v1/sessions/${id}`, { model: 'free-model' })).status).toBe(200);
	});

	it('runs turns on the free model even in a session chosen on plus', async () => {
		h = await apiHarness({ env: { KANTERA_FREE_MODEL: 'free-model' }, tier: 'plus' });
		const { app, alice, as, mock } = h;
		mock?.setHandler(() => ({ text: 'Waves.' }));
		const api = as(alice);
		const id = await newSession(api, { provider: 'openai', model: 'plus-model' });
		await play(api, id, 'on plus');
		// The next request is authenticated afresh (the hooks read the account, tier included); a turn
		// carries the tier it was accepted under.
		const onFree = await setTier(app, alice.id, 'free');
		if (!onFree) throw new Error('alice is gone');
		await play(as(onFree), id, 'on free');
		expect(mock?.requests.map((r) => r.openai?.model)).toEqual(['plus-model', 'free-model']);
	});

	it('cannot regenerate images by hand (403), and nothing is ordered', async () => {
		h = await apiHarness();
		const { app, alice, as } = h;
		const api = as(alice);
		const id = await newSession(api);
		await app.sessions.use(id, (s) => s.write((tx) => stage.npcs.register(tx, { name: 'Bram', appearance: 'grey cloak' })));
		const res = await api.post(`/api/v1/sessions/${id}/images/regenerate`, { target: 'npc', name: 'Bram' });
		expect(res.status).toBe(403);
		expect(await bodyOf(res, ErrorBody)).toMatchObject({ code: 'REGENERATION_OFF' });
		const [daily] = await app.control.db.select().from(controlSchema.usageDaily);
		expect(daily?.regenerations ?? 0).toBe(0);
		// Another user's session is still a 404, whatever the tier.
		expect((await as(h.bob).post(`/api/v1/sessions/${id}/images/regenerate`, { target: 'npc', name: 'Bram' })).status).toBe(404);
	});
});

describe('the plus tier', () => {
	it('has no turn quota and chooses its model', async () => {
		h = await apiHarness({ env: { KANTERA_FREE_TURNS_PER_DAY: '1' }, tier: 'plus' });
		const { alice, as, mock } = h;
		mock?.setHandler(() => ({ text: 'Gulls.' }));
		const api = as(alice);
		const id = await newSession(api, { provider: 'openai', model: 'plus-model' });
		for (const text of ['one', 'two', 'three']) expect((await play(api, id, text)).status).toBe(202);
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session)).plan).toMatchObject({
			tier: 'plus',
			modelChoice: true,
			turnsLimit: null,
			turnsUsed: 3,
			turnsLeft: null
		});
	});
});

describe('the call log', () => {
	it('records every call of a turn with tokens, cost, latency, retries and outcome, and no text', async () => {
		h = await apiHarness({ env: { KANTERA_LLM_MODEL: 'gpt-4.1-mini' } });
		const { app, alice, as, mock } = h;
		mock?.script([
			{ fault: { kind: 'status', status: 500 } },
			{ text: 'A secret-laden reply.', usage: { inputTokens: 2000, cachedInputTokens: 1000, outputTokens: 100 } }
		]);
		const api = as(alice);
		const id = await newSession(api);
		await play(api, id, 'a very private player line');
		const rows = await app.control.db.select().from(controlSchema.llmCalls).orderBy(asc(controlSchema.llmCalls.id));
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({
			userId: alice.id,
			sessionId: id,
			provider: 'openai',
			model: 'gpt-4.1-mini',
			inputTokens: 2000,
			cachedInputTokens: 1000,
			outputTokens: 100,
			retries: 1,
			failure: null
		});
		expect(rows[0]?.costMicros).toBeGreaterThan(0);
		expect(rows[0]?.latencyMs).toBeGreaterThanOrEqual(0);
		expect(JSON.stringify(rows)).not.toMatch(/private|secret/);
	});

	it('records a call that failed for good as a failure', async () => {
		h = await apiHarness();
		const { app, alice, as, mock } = h;
		mock?.script([{ fault: { kind: 'status', status: 400 } }]);
		const api = as(alice);
		const id = await newSession(api);
		await play(api, id, 'hello');
		const rows = await app.control.db.select().from(controlSchema.llmCalls);
		expect(rows.map((r) => [r.failure, r.inputTokens, r.costMicros])).toEqual([['bad_request', 0, 0]]);
	});
});

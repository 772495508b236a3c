/** The operator's usage report from the call log, its CSV, and the player's spend read through the API. */
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { canonGuardReport, csvField, parseRange, percentile, usageCsv, usageReport } from '../../../src/lib/server/usage';
import { callLogInsert, recordCall, recordCanonGuard, type CallRecord } from '../../../src/lib/server/budget';
import { createPlaySession } from '../../../src/lib/server/sessions';
import { createApp } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { databaseEnv } from '../../helpers/databases';
import { createUser } from '../../../src/lib/server/auth';
import { apiHarness, waitForTurn, type ApiHarness } from '../api/client';
import { AcceptedTurn, bodyOf, Session } from '../api/shapes';
import { SpendSchema } from '../../../src/lib/types/api';
import * as v from 'valibot';
import { controlSchema } from '../../../src/lib/server/db';

let env: TestEnv | undefined;
let h: ApiHarness | undefined;
afterEach(async () => {
	await env?.cleanup();
	await h?.cleanup();
	env = undefined;
	h = undefined;
});

const call = (over: Partial<CallRecord> = {}): CallRecord => ({
	provider: 'openai',
	model: 'gpt-4.1-mini',
	inputTokens: 1000,
	cachedInputTokens: 400,
	cacheWriteTokens: 0,
	outputTokens: 100,
	costMicros: 500,
	latencyMs: 100,
	retries: 0,
	failure: undefined,
	...over
});

describe('the call log’s retention (KANTERA_CALL_LOG_DAYS)', () => {
	it('is validated, and a server with it deletes the rows older than that many days, keeping the rest', async () => {
		const base = { KANTERA_DATA_DIR: '/tmp/kantera-never-opened' };
		expect(parseConfig(base).ops.callLogDays).toBeUndefined();
		expect(parseConfig({ ...base, KANTERA_CALL_LOG_DAYS: '30' }).ops.callLogDays).toBe(30);
		for (const bad of ['0', '-3', 'a month', '1.5'])
			expect(() => parseConfig({ ...base, KANTERA_CALL_LOG_DAYS: bad })).toThrow(/KANTERA_CALL_LOG_DAYS/);

		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'correct horse battery' }, { viaOperator: true });
		const day = 86_400_000;
		for (const age of [40, 31, 29, 1])
			await callLogInsert(env.app.control.db, { userId: alice.id, sessionId: 's1' }, call({ latencyMs: age }), Date.now() - age * day);
		const ages = async (db = env?.app.control.db) =>
			(await db?.select().from(controlSchema.llmCalls))?.map((r) => r.latencyMs).sort((a, b) => a - b);
		expect(await ages()).toEqual([1, 29, 31, 40]);
		// Without the setting (the first server), nothing went; a server started with it prunes on its start.
		const kept = await createApp(parseConfig({ ...databaseEnv(env.dir), KANTERA_CALL_LOG_DAYS: '30' }));
		try {
			for (let left = await ages(kept.control.db); left?.length !== 2; left = await ages(kept.control.db))
				await new Promise((r) => setTimeout(r, 50));
			expect(await ages(kept.control.db)).toEqual([1, 29]);
		} finally {
			await kept.close();
		}
	});
});

describe('the canon guard on /admin/usage', () => {
	it('sums what the guard did over every session and lists the sessions where it acted most, stopped turns first', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		const alice = await createUser(env.app, { name: 'alice', password: 'correct horse battery' }, { viaOperator: true });
		const calm = await createPlaySession(env.app, { ownerId: alice.id, title: 'Calm', language: 'en' });
		const leaky = await createPlaySession(env.app, { ownerId: alice.id, title: 'Leaky', language: 'en' });
		const rewritten = await createPlaySession(env.app, { ownerId: alice.id, title: 'Rewritten', language: 'en' });
		expect(await canonGuardReport(db)).toEqual({ rewrites: 0, stopped: 0, sessions: [] });
		// A session that only spent money is no guard's business.
		await recordCall(db, { userId: alice.id, sessionId: calm.id }, 100, Date.now());
		for (const _ of [1, 2, 3]) await recordCanonGuard(db, rewritten.id, { rewrites: 1, stopped: false });
		await recordCanonGuard(db, leaky.id, { rewrites: 1, stopped: true });
		expect(await canonGuardReport(db)).toEqual({
			rewrites: 4,
			stopped: 1,
			sessions: [
				{ sessionId: leaky.id, title: 'Leaky', owner: 'alice', rewrites: 1, stopped: 1 },
				{ sessionId: rewritten.id, title: 'Rewritten', owner: 'alice', rewrites: 3, stopped: 0 }
			]
		});
	});
});

describe('usage report', () => {
	it('takes the nearest-rank percentile', () => {
		expect(percentile([], 50)).toBeNull();
		expect(percentile([10], 95)).toBe(10);
		const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
		expect([percentile(hundred, 50), percentile(hundred, 95)]).toEqual([50, 95]);
	});

	it('reads a range of UTC days, 30 by default, and refuses bad ones', () => {
		const now = Date.parse('2026-12-02T12:00:00Z');
		expect(parseRange(new URLSearchParams(), now)).toEqual({ from: '2026-11-03', to: '2026-12-02' });
		expect(parseRange(new URLSearchParams('from=2026-12-03&to=2026-12-01'), now)).toEqual({ error: '"from" must not be after "to"' });
		expect(parseRange(new URLSearchParams('from=2020-01-01&to=2026-12-01'), now)).toMatchObject({
			error: expect.stringMatching(/at most 366 days/)
		});
		expect(parseRange(new URLSearchParams('from=yesterday'), now)).toMatchObject({ error: expect.stringMatching(/YYYY-MM-DD/) });
	});

	it('sums per day, per provider/model and per user, with failures, retries and latency percentiles', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		const alice = await createUser(env.app, { name: 'alice', password: 'correct horse battery' }, { viaOperator: true });
		const payer = { userId: alice.id, sessionId: 's1' };
		const day1 = Date.parse('2026-12-01T10:00:00Z');
		const day2 = Date.parse('2026-12-02T10:00:00Z');
		for (const [record, at] of [
			[call({ latencyMs: 100 }), day1],
			[call({ latencyMs: 300, retries: 2 }), day1],
			[call({ provider: 'anthropic', model: 'claude-sonnet-4-5', costMicros: 2000, cacheWriteTokens: 50, latencyMs: 200 }), day2],
			[call({ failure: 'timeout', inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costMicros: 0, latencyMs: 9000 }), day2]
		] as const)
			await callLogInsert(db, payer, record, at);
		const report = await usageReport(db, { from: '2026-11-30', to: '2026-12-02' });
		expect(report.days.map((d) => [d.day, d.calls, d.costMicros, d.failures, d.retries, d.p50Ms, d.p95Ms])).toEqual([
			['2026-11-30', 0, 0, 0, 0, null, null],
			['2026-12-01', 2, 1000, 0, 2, 100, 300],
			// The failed call's 9 s is not an LLM latency.
			['2026-12-02', 2, 2000, 1, 0, 200, 200]
		]);
		expect(report.models.map((m) => [m.provider, m.model, m.calls, m.costMicros])).toEqual([
			['anthropic', 'claude-sonnet-4-5', 1, 2000],
			['openai', 'gpt-4.1-mini', 3, 1000]
		]);
		expect(report.users).toEqual([
			expect.objectContaining({ name: 'alice', tier: 'free', calls: 4, costMicros: 3000, cachedInputTokens: 1200 })
		]);
		const csv = usageCsv(report, 'days').split('\r\n');
		expect(csv[0]).toBe(
			'day,provider,model,calls,input_tokens,cached_input_tokens,cache_write_tokens,output_tokens,cost_usd,failures,retries,p50_latency_ms,p95_latency_ms'
		);
		expect(csv[1]).toBe('2026-12-01,openai,gpt-4.1-mini,2,2000,800,0,200,0.001000,0,2,100,300');
	});

	it('writes CSV fields safely: quotes, line breaks and formula starts', () => {
		expect(csvField('plain')).toBe('plain');
		expect(csvField('a,b')).toBe('"a,b"');
		expect(csvField('say "hi"')).toBe('"say ""hi"""');
		expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
		expect(csvField(null)).toBe('');
	});
});

describe('spend through the API', () => {
	it('gives tokens and cost per turn, the cache hit rate, budgets left and turns left; another user gets a 404', async () => {
		h = await apiHarness({ env: { KANTERA_LLM_MODEL: 'gpt-4.1-mini', KANTERA_BUDGET_SESSION_USD: '1', KANTERA_BUDGET_USER_DAY_USD: '2' } });
		const { alice, bob, as, mock } = h;
		mock?.script([
			{ text: 'One.', usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 } },
			{ text: 'Two.', usage: { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 50 } }
		]);
		const api = as(alice);
		const id = (await bodyOf(await api.post('/api/v1/sessions', {}), Session)).id;
		for (const [i, text] of ['one', 'two'].entries()) {
			const res = await api.post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey: `spend-key-${i}-0000` });
			await waitForTurn(api, id, (await bodyOf(res, AcceptedTurn)).turnId);
		}
		const spend = v.parse(SpendSchema, await (await api.get(`/api/v1/sessions/${id}/spend`)).json());
		expect(spend.turns.map((t) => [t.n, t.kind, t.inputTokens, t.cachedInputTokens, t.outputTokens])).toEqual([
			[1, 'player', 1000, 0, 50],
			[2, 'player', 1000, 800, 50]
		]);
		expect(spend.totals.cacheHitRate).toBeCloseTo(0.4);
		const spent = spend.totals.costMicros;
		expect(spent).toBeGreaterThan(0);
		expect(spend.budgets).toEqual([
			{ scope: 'session', limitMicros: 1_000_000, leftMicros: 1_000_000 - spent },
			{ scope: 'user_day', limitMicros: 2_000_000, leftMicros: 2_000_000 - spent }
		]);
		expect(spend.plan).toMatchObject({ tier: 'free', turnsUsed: 2, turnsLeft: 48 });
		expect((await as(bob).get(`/api/v1/sessions/${id}/spend`)).status).toBe(404);
	});
});

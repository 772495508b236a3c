import { describe, it, expect, afterEach } from 'vitest';
import { BudgetGuard, loadScopes, recordCall, markWarned, takeTurnQuota, returnTurnQuota } from '../../../src/lib/server/budget';
import { testEnv, type TestEnv } from '../../helpers/env';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

const NOW = Date.UTC(2026, 11, 2, 10, 0, 0);
const none = { limit: undefined, warnAt: undefined };

describe('spending in the control database', () => {
	it('builds scopes from recorded calls; the global month sums every user', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		await recordCall(db, { userId: 'u1', sessionId: 's1' }, 300, NOW);
		await recordCall(db, { userId: 'u1', sessionId: 's2' }, 200, NOW);
		await recordCall(db, { userId: 'u2', sessionId: 's3' }, 1000, NOW);
		await recordCall(db, { userId: 'u1', sessionId: 's1' }, 7, NOW - 86_400_000); // yesterday
		await recordCall(db, { userId: 'u1', sessionId: 's1' }, 9, Date.UTC(2026, 10, 30)); // last month
		const scopes = await loadScopes(db, { userId: 'u1', sessionId: 's1', turnId: 't' }, { turn: none, session: none, userDay: none, globalMonth: none, maxToolRounds: 8 }, NOW);
		const spent = Object.fromEntries(scopes.filter((s) => s.unit === 'micros').map((s) => [s.scope, s.spent]));
		expect(spent).toEqual({ turn: 0, session: 316, user_day: 500, global_month: 1507 });
	});

	it('a warning fires once per scope and period, even across guards', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-02', NOW)).toBe(true);
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-02', NOW)).toBe(false);
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-03', NOW)).toBe(true);
		const scopes = await loadScopes(db, { userId: 'u1', sessionId: 's1', turnId: 't' }, { turn: none, session: none, userDay: { limit: 100, warnAt: 1 }, globalMonth: none, maxToolRounds: 8 }, NOW);
		const guard = new BudgetGuard(scopes);
		expect(guard.record(50)).toEqual([]);
	});

	it('the daily quota refuses the turn after the last one with the reset time, and can be given back', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		const results = await Promise.all([1, 2, 3, 4].map(() => takeTurnQuota(db, 'u1', 3, NOW)));
		expect(results.filter((r) => r.ok)).toHaveLength(3);
		const refused = results.find((r) => !r.ok);
		expect(refused).toEqual({ ok: false, used: 3, resetsAt: new Date(Date.UTC(2026, 11, 3)) });
		await returnTurnQuota(db, 'u1', NOW);
		expect((await takeTurnQuota(db, 'u1', 3, NOW)).ok).toBe(true);
		expect((await takeTurnQuota(db, 'u1', 3, NOW + 86_400_000)).ok).toBe(true);
		expect((await takeTurnQuota(db, 'u2', 0, NOW)).ok).toBe(true);
	});
});

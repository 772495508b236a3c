import { describe, it, expect, afterEach } from 'vitest';
import {
	BudgetGuard,
	loadScopes,
	recordCall,
	markWarned,
	takeTurnQuota,
	returnTurnQuota,
	reserve,
	settle,
	release,
	reservedMicros,
	worstCaseMicros
} from '../../../src/lib/server/budget';
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
		const scopes = await loadScopes(
			db,
			{ userId: 'u1', sessionId: 's1', turnId: 't' },
			{ turn: none, session: none, userDay: none, globalMonth: none, maxToolRounds: 8 },
			NOW
		);
		const spent = Object.fromEntries(scopes.filter((s) => s.unit === 'micros').map((s) => [s.scope, s.spent]));
		expect(spent).toEqual({ turn: 0, session: 316, user_day: 500, global_month: 1507 });
	});

	it('a warning fires once per scope and period, even across guards', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-02', NOW)).toBe(true);
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-02', NOW)).toBe(false);
		expect(await markWarned(db, 'user_day', 'u1', '2026-12-03', NOW)).toBe(true);
		const scopes = await loadScopes(
			db,
			{ userId: 'u1', sessionId: 's1', turnId: 't' },
			{ turn: none, session: none, userDay: { limit: 100, warnAt: 1 }, globalMonth: none, maxToolRounds: 8 },
			NOW
		);
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

describe('reservations', () => {
	const limits = { session: none, userDay: { limit: 1_000, warnAt: 500 }, globalMonth: none };
	const payer = { userId: 'u1', sessionId: 's1' };
	const TTL = 60_000;

	it('hold the worst case while a call runs, answer “wait” while only reservations stand in the way and “no” once spending does', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		// A call whose worst case is more than the limit may start while nothing else is held…
		const first = await reserve(db, payer, limits, 1_200, NOW, TTL);
		expect(first).toMatchObject({ ok: true, totals: { user_day: 0 } });
		// …but no other call of the scope may start until it is settled.
		const second = await reserve(db, { ...payer, sessionId: 's2' }, limits, 800, NOW, TTL);
		expect(second).toMatchObject({ ok: false, final: false, exceeded: { scope: 'user_day', spent: 1_200, limit: 1_000 } });
		await settle(db, first.ok ? first.id : undefined, payer, 600, NOW);
		expect(await reservedMicros(db)).toBe(0);
		expect(await reserve(db, payer, limits, 800, NOW, TTL)).toMatchObject({ ok: true, totals: { user_day: 600 } });
		await recordCall(db, payer, 500, NOW);
		expect(await reserve(db, payer, limits, 1, NOW, TTL)).toMatchObject({ ok: false, final: true, exceeded: { spent: 1_100 } });
		// Another user, and tomorrow, are other scopes.
		expect((await reserve(db, { userId: 'u2', sessionId: 's3' }, limits, 1, NOW, TTL)).ok).toBe(true);
		expect((await reserve(db, payer, limits, 1, NOW + 86_400_000, TTL)).ok).toBe(true);
	});

	it('free the money of a process that died once they expire, and are released without counting a call', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		const orphan = await reserve(db, payer, limits, 1_200, NOW, TTL);
		expect(orphan.ok).toBe(true);
		expect((await reserve(db, payer, limits, 900, NOW + TTL - 1, TTL)).ok).toBe(false);
		const later = await reserve(db, payer, limits, 900, NOW + TTL + 1, TTL);
		expect(later.ok).toBe(true);
		await release(db, later.ok ? later.id : undefined);
		expect(await reservedMicros(db)).toBe(0);
		const scopes = await loadScopes(db, { ...payer, turnId: 't' }, { turn: none, ...limits, maxToolRounds: 8 }, NOW);
		expect(scopes.find((s) => s.scope === 'user_day')?.spent).toBe(0);
	});

	it('writes nothing when no shared scope has a limit or a warning', async () => {
		env = await testEnv();
		const db = env.app.control.db;
		expect(await reserve(db, payer, { session: none, userDay: none, globalMonth: none }, 5, NOW, TTL)).toEqual({
			ok: true,
			id: undefined,
			totals: {}
		});
		expect(await reservedMicros(db)).toBe(0);
	});

	it('price a call’s worst case from its bytes and the output cap, at the dearest input rate', () => {
		expect(worstCaseMicros({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }, 1_000_000, 1_000)).toBe(3_750_000 + 15_000);
		expect(worstCaseMicros(undefined, 1_000_000, 1_000)).toBe(0);
	});
});

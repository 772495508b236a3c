/**
 * Scopes that span sessions (a user's day, the server's month) hold when many turns start at once:
 * in many sessions, in two apps on the same databases (two control-database clients, two session
 * pools, two runners), and in a second OS process. Every LLM call here costs $1.20 against a $2
 * limit, so the guard may let exactly two calls through (the second crosses the limit: at most one
 * call per scope), as it does when the turns are played one after another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq, sum } from 'drizzle-orm';
import { budgetApps, type BudgetApps } from '../../helpers/budget-apps';
import type { MockLlmApp } from '../../helpers/turns';
import { spawnTurnProcess } from '../../helpers/spawn-turn-process';
import { controlSchema, newId, sessionSchema } from '../../../src/lib/server/db';
import { reservedMicros } from '../../../src/lib/server/budget';
import { acceptTurn, type TurnRow } from '../../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../../src/lib/server/session-setup';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const CALL_USD = 1.2;
const LIMIT_USD = 2;
/** Output tokens the mock reports per call; the price below makes each call cost CALL_USD. */
const OUTPUT_TOKENS = 1_000;
const PRICES = { 'mock-model': { input: 0, output: (CALL_USD * 1_000_000) / OUTPUT_TOKENS } };
const TURNS = 10;
const MICROS = 1_000_000;

type Setup = BudgetApps;

/** A slow mock (every call overlaps the others) and `apps` apps on one data directory. */
function setup(limitEnv: Record<string, string>, apps: number): Promise<Setup> {
	return budgetApps({
		prices: PRICES,
		limitEnv,
		apps,
		handler: () => ({ text: ['The storm', ' passes.'], usage: { inputTokens: 10, outputTokens: OUTPUT_TOKENS }, frameDelayMs: 150 }),
		cleanups
	});
}

async function queueTurn(a: MockLlmApp, userId: string): Promise<{ sessionId: string; turnId: string }> {
	const sessionId = newId();
	await a.app.sessions.create(sessionId);
	const accepted = await a.app.sessions.use(sessionId, async (s) => {
		await s.write(async (tx) => {
			await ensureMission(tx, composeMission('en'));
			await writeSettings(tx, { language: 'en' });
		});
		return acceptTurn(a.app, s, { userId, text: 'I watch the storm.', idempotencyKey: `budget-${newId(12)}` });
	});
	return { sessionId, turnId: accepted.turnId };
}

async function finishedTurn(a: MockLlmApp, q: { sessionId: string; turnId: string }): Promise<TurnRow | undefined> {
	const [row] = await a.app.sessions.use(q.sessionId, (s) =>
		s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, q.turnId))
	);
	return row;
}

async function spentMicros(a: MockLlmApp): Promise<number> {
	const [row] = await a.app.control.db.select({ n: sum(controlSchema.usageDaily.costMicros) }).from(controlSchema.usageDaily);
	return Number(row?.n ?? 0);
}

const scopes: { scope: string; env: Record<string, string>; users: number }[] = [
	{ scope: 'user_day', env: { KANTERA_BUDGET_USER_DAY_USD: String(LIMIT_USD) }, users: 1 },
	{ scope: 'global_month', env: { KANTERA_BUDGET_GLOBAL_MONTH_USD: String(LIMIT_USD) }, users: 5 }
];

describe.each(scopes)('the $scope budget under concurrent turns', ({ scope, env, users }) => {
	it(`lets ${TURNS} turns started at once in ${TURNS} sessions, on two apps, make only the calls one after another would`, async () => {
		const { mock, apps } = await setup(env, 2);
		const [first] = apps;
		if (!first) throw new Error('no app');
		const queued = await Promise.all(
			Array.from({ length: TURNS }, async (_, i) => {
				const a = apps[i % 2];
				if (!a) throw new Error('no app');
				return { a, ...(await queueTurn(a, `user-${i % users}`)) };
			})
		);
		for (const q of queued) q.a.app.runner.kick(q.sessionId);
		await Promise.all(apps.map((a) => a.app.runner.idle()));

		expect(mock.requests).toHaveLength(2);
		const spent = await spentMicros(first);
		expect(spent).toBe(2 * CALL_USD * MICROS);
		expect(spent).toBeLessThanOrEqual((LIMIT_USD + CALL_USD) * MICROS);
		const turns = await Promise.all(queued.map((q) => finishedTurn(q.a, q)));
		expect(turns.map((t) => t?.status)).toEqual(Array.from({ length: TURNS }, () => 'committed'));
		expect(turns.filter((t) => t?.stopped === `budget:${scope}`)).toHaveLength(TURNS - 2);
		expect(await reservedMicros(first.app.control.db)).toBe(0);
	}, 60_000);
});

describe('the user-day budget across server processes', () => {
	it('holds when another process on the same databases plays turns of the same user at the same time', async () => {
		const { dir, mock, env, apps } = await setup({ KANTERA_BUDGET_USER_DAY_USD: String(LIMIT_USD) }, 1);
		const [here] = apps;
		if (!here) throw new Error('no app');
		const theirs = Array.from({ length: TURNS / 2 }, () => newId());
		const other = spawnTurnProcess({ dataDir: dir, mock, userId: 'user-0', sessionIds: theirs, env });
		cleanups.push(() => other.kill());
		// Our five turns start while the other process's five are under way.
		await other.running;
		const ours = await Promise.all(Array.from({ length: TURNS / 2 }, () => queueTurn(here, 'user-0')));
		for (const q of ours) here.app.runner.kick(q.sessionId);
		await here.app.runner.idle();
		expect(await other.exited).toBe(0);
		expect(other.events.at(-1)?.event).toBe('idle');

		expect(mock.requests).toHaveLength(2);
		expect(await spentMicros(here)).toBe(2 * CALL_USD * MICROS);
		expect(await reservedMicros(here.app.control.db)).toBe(0);
	}, 60_000);
});

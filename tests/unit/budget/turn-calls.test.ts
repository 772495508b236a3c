/**
 * The budget of turns that make more than one LLM call (a tool call, then the reply), now that the
 * control database gets one batch per step: the turn's start (tier, scopes, the first call's
 * reservation), one per call (its settle with the next call's reservation), and the last settle
 * before the turn commits. What must still hold (seed 002): a call's cost is counted before the next
 * call starts and before the turn commits; warnings fire once; limits stop before the next call; turns
 * of one user in several sessions and apps cannot overspend together; no reservation is left behind.
 * Runs in the `remote` project too (every database on the Hrana test server).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eq, sum } from 'drizzle-orm';
import type { MockLlm } from '../../mock-llm';
import type { RecordedRequest, ScriptedReply } from '../../mock-llm/types';
import type { MockLlmApp } from '../../helpers/turns';
import { budgetApps } from '../../helpers/budget-apps';
import { controlSchema, newId, sessionSchema, type ControlDrizzle } from '../../../src/lib/server/db';
import { reservePart, reservedMicros, runPart } from '../../../src/lib/server/budget';
import { perTier } from '../../../src/lib/server/tiers';
import { createUser, setTier } from '../../../src/lib/server/auth';
import type { Tier } from '../../../src/lib/types/account';
import { readEventsAfter } from '../../../src/lib/server/events';
import { acceptTurn, type TurnRow } from '../../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../../src/lib/server/session-setup';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const MICROS = 1_000_000;
const CALL_USD = 1.2;
/** Output tokens the mock reports per call; the price below makes each call cost CALL_USD. */
const OUTPUT_TOKENS = 1_000;
const PRICES = { 'mock-model': { input: 0, output: (CALL_USD * MICROS) / OUTPUT_TOKENS } };
const REPLY = 'The storm passes over the harbour.';
/** Input is free here: a call's worst case is the output cap (4,096 tokens) at the output price. */
const SECOND_CALL_WORST_CASE = 4_096 * PRICES['mock-model'].output;

const isSecondCall = (r: RecordedRequest) => r.openai?.messages.at(-1)?.role === 'tool';

/** Every turn: a tool call (journal_append), then the reply once the tool's result is in. */
function twoCalls(r: RecordedRequest, frameDelayMs: number): ScriptedReply {
	const usage = { inputTokens: 10, outputTokens: OUTPUT_TOKENS };
	if (isSecondCall(r)) return { text: REPLY, usage, frameDelayMs };
	return { toolCalls: [{ name: 'journal_append', arguments: { entry: 'The storm rose.' } }], usage, frameDelayMs };
}

function setup(
	limitEnv: Record<string, string>,
	apps: number,
	handler: (r: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>
): Promise<{ mock: MockLlm; apps: MockLlmApp[] }> {
	return budgetApps({ prices: PRICES, limitEnv, apps, handler, cleanups });
}

async function queueTurn(a: MockLlmApp, userId: string, tier?: Tier): Promise<{ a: MockLlmApp; sessionId: string; turnId: string }> {
	const sessionId = newId();
	await a.app.sessions.create(sessionId);
	const accepted = await a.app.sessions.use(sessionId, async (s) => {
		await s.write(async (tx) => {
			await ensureMission(tx, composeMission('en'));
			await writeSettings(tx, { language: 'en' });
		});
		return acceptTurn(a.app, s, { userId, ...(tier ? { tier } : {}), text: 'I watch the storm.', idempotencyKey: `budget-${newId(12)}` });
	});
	return { a, sessionId, turnId: accepted.turnId };
}

async function finished(q: { a: MockLlmApp; sessionId: string; turnId: string }) {
	return q.a.app.sessions.use(q.sessionId, async (s) => {
		const [turn] = await s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, q.turnId));
		const events = await readEventsAfter(s.db, 0);
		return { turn, events: events.map((e) => e.event) };
	});
}

async function spent(db: ControlDrizzle): Promise<{ micros: number; calls: number }> {
	const [row] = await db.select({ n: sum(controlSchema.usageDaily.costMicros) }).from(controlSchema.usageDaily);
	const calls = await db.select({ id: controlSchema.llmCalls.id }).from(controlSchema.llmCalls);
	return { micros: Number(row?.n ?? 0), calls: calls.length };
}

const only = <T>(xs: readonly T[]): T => {
	const [x] = xs;
	if (!x || xs.length !== 1) throw new Error(`expected one, got ${xs.length}`);
	return x;
};

describe('a turn of two calls', () => {
	it('has its first call counted (cost, call log, reservation given back) before the second starts, and both before it commits', async () => {
		let atSecondCall: { micros: number; calls: number; reserved: number } | undefined;
		/** The app's control database, once the app is built (the mock's handler reads it). */
		const control: { db?: ControlDrizzle } = {};
		const { apps } = await setup({ KANTERA_BUDGET_USER_DAY_USD: '1000' }, 1, async (r) => {
			const { db } = control;
			if (isSecondCall(r) && db) atSecondCall = { ...(await spent(db)), reserved: await reservedMicros(db) };
			return twoCalls(r, 0);
		});
		const a = only(apps);
		control.db = a.app.control.db;
		const q = await queueTurn(a, 'user-0');
		a.app.runner.kick(q.sessionId);
		await a.app.runner.idle();

		// While the second call ran: the first was settled, and only the second's worst case was held.
		expect(atSecondCall).toMatchObject({ micros: CALL_USD * MICROS, calls: 1 });
		expect(atSecondCall?.reserved).toBe(SECOND_CALL_WORST_CASE);
		const { turn } = await finished(q);
		expect(turn?.status).toBe('committed');
		expect(turn?.reply).toBe(REPLY);
		expect(await spent(a.app.control.db)).toEqual({ micros: 2 * CALL_USD * MICROS, calls: 2 });
		expect(await reservedMicros(a.app.control.db)).toBe(0);
	});

	it('warns once per scope, after the call that crossed the threshold and before the next, across sessions', async () => {
		const { apps } = await setup({ KANTERA_BUDGET_USER_DAY_WARN_USD: '1' }, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const first = await queueTurn(a, 'user-0');
		a.app.runner.kick(first.sessionId);
		await a.app.runner.idle();
		const second = await queueTurn(a, 'user-0');
		a.app.runner.kick(second.sessionId);
		await a.app.runner.idle();

		const { turn, events } = await finished(first);
		expect(turn?.status).toBe('committed');
		const warnings = events.filter((e) => e.type === 'budget.warning');
		expect(warnings).toEqual([expect.objectContaining({ scope: 'user_day' })]);
		// The first call (the tool call) crossed it: told before the reply's text.
		const warned = events.findIndex((e) => e.type === 'budget.warning');
		const tool = events.findIndex((e) => e.type === 'tool.activity');
		const text = events.findIndex((e) => e.type === 'text.delta');
		expect(tool).toBeLessThan(warned);
		expect(text).toBeGreaterThan(warned);
		// The other session of the same user spends in the same day: no second warning.
		const other = await finished(second);
		expect(other.turn?.status).toBe('committed');
		expect(other.events.filter((e) => e.type === 'budget.warning')).toEqual([]);
		expect(await spent(a.app.control.db)).toEqual({ micros: 4 * CALL_USD * MICROS, calls: 4 });
	});

	it('gives back the reservation made with its start when the guard stops it before any call', async () => {
		const { mock, apps } = await setup({ KANTERA_BUDGET_TURN_USD: '0', KANTERA_BUDGET_USER_DAY_USD: '1000' }, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const q = await queueTurn(a, 'user-0');
		a.app.runner.kick(q.sessionId);
		await a.app.runner.idle();

		const { turn } = await finished(q);
		expect(turn).toMatchObject({ status: 'committed', stopped: 'budget:turn' });
		expect(mock.requests).toHaveLength(0);
		expect(await reservedMicros(a.app.control.db)).toBe(0);
		expect(await spent(a.app.control.db)).toEqual({ micros: 0, calls: 0 });
	});
});

const TURNS = 6;
const LIMIT_USD = 2;

describe.each<{ scope: string; env: Record<string, string>; users: number }>([
	{ scope: 'user_day', env: { KANTERA_BUDGET_USER_DAY_USD: String(LIMIT_USD) }, users: 1 },
	{ scope: 'global_month', env: { KANTERA_BUDGET_GLOBAL_MONTH_USD: String(LIMIT_USD) }, users: 3 }
])('turns of two calls racing near the $scope limit', ({ scope, env, users }) => {
	it(`make, ${TURNS} at once in ${TURNS} sessions on two apps, only the calls played one after another would`, async () => {
		// Slow calls: every turn's start and reservations overlap the others'.
		const { mock, apps } = await setup(env, 2, (r) => twoCalls(r, 60));
		const queued = await Promise.all(
			Array.from({ length: TURNS }, (_, i) => {
				const a = apps[i % 2];
				if (!a) throw new Error('no app');
				return queueTurn(a, `user-${i % users}`);
			})
		);
		for (const q of queued) q.a.app.runner.kick(q.sessionId);
		await Promise.all(apps.map((a) => a.app.runner.idle()));

		// One after another: the first turn's two calls ($1.20, then $2.40 > $2), then nothing. Every call's
		// worst case is above the limit, so no other call may start while one is held: the first turn's
		// second call is reserved in the same transaction that settles its first, before anyone else's.
		expect(mock.requests).toHaveLength(2);
		const [first] = apps;
		if (!first) throw new Error('no app');
		expect(await spent(first.app.control.db)).toEqual({ micros: 2 * CALL_USD * MICROS, calls: 2 });
		expect(await reservedMicros(first.app.control.db)).toBe(0);
		const turns = (await Promise.all(queued.map(finished))).map((f) => f.turn);
		expect(turns.map((t) => t?.status)).toEqual(Array.from({ length: TURNS }, () => 'committed'));
		const played = turns.filter((t): t is TurnRow => t?.reply === REPLY);
		expect(played).toHaveLength(1);
		expect(played[0]?.stopped ?? null).toBeNull();
		expect(turns.filter((t) => t?.stopped === `budget:${scope}`)).toHaveLength(TURNS - 1);
	}, 60_000);
});

describe('the first call’s reservation, priced by the tier in SQL', () => {
	it('holds the amount of the tier the user has, and nothing when that tier has no model', async () => {
		const { apps } = await setup({}, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const db = a.app.control.db;
		const free = await createUser(a.app, { name: 'free-player', password: 'a-long-password' }, { viaOperator: true });
		const plus = await createUser(a.app, { name: 'plus-player', password: 'a-long-password' }, { viaOperator: true });
		await db.update(controlSchema.users).set({ tier: 'plus' }).where(eq(controlSchema.users.id, plus.id));
		const limits = {
			session: { limit: 1_000_000, warnAt: undefined },
			userDay: { limit: undefined, warnAt: undefined },
			globalMonth: { limit: undefined, warnAt: undefined }
		};
		const reserveFor = async (userId: string, amounts: { free?: number; plus?: number; none?: number }) => {
			const part = reservePart(
				db,
				{ userId, sessionId: `s-${userId}` },
				limits,
				perTier(userId, (t) => amounts[t ?? 'none']),
				Date.now(),
				60_000
			);
			if (!part) throw new Error('a limit is set: there is something to reserve');
			return runPart(db, part);
		};
		const held = async (userId: string) => {
			const rows = await db.select().from(controlSchema.budgetReservations).where(eq(controlSchema.budgetReservations.userId, userId));
			return rows.map((r) => r.micros);
		};

		expect((await reserveFor(free.id, { free: 100, plus: 200, none: 300 })).ok).toBe(true);
		expect((await reserveFor(plus.id, { free: 100, plus: 200, none: 300 })).ok).toBe(true);
		expect((await reserveFor('no-such-user', { free: 100, plus: 200, none: 300 })).ok).toBe(true);
		expect(await held(free.id)).toEqual([100]);
		expect(await held(plus.id)).toEqual([200]);
		expect(await held('no-such-user')).toEqual([300]);
		// No model for the tier (NULL): nothing is reserved.
		expect((await reserveFor(free.id, { plus: 200 })).ok).toBe(false);
		expect(await held(free.id)).toEqual([100]);
	});
});

/** The control database's batches while the runner plays what was queued (the accept's are not counted). */
async function controlBatchesWhileRunning(a: MockLlmApp, sessionId: string): Promise<number> {
	const batch = vi.spyOn(a.app.control.db, 'batch');
	try {
		a.app.runner.kick(sessionId);
		await a.app.runner.idle();
		return batch.mock.calls.length;
	} finally {
		batch.mockRestore();
	}
}

describe('a turn on a server without budget limits or warnings', () => {
	it('reads nothing on the control database at its start and settles all its calls in one batch before it commits', async () => {
		let atSecondCall: { micros: number; calls: number } | undefined;
		const control: { db?: ControlDrizzle } = {};
		const { apps } = await setup({}, 1, async (r) => {
			const { db } = control;
			if (isSecondCall(r) && db) atSecondCall = await spent(db);
			return twoCalls(r, 0);
		});
		const a = only(apps);
		control.db = a.app.control.db;
		const q = await queueTurn(a, 'user-0', 'plus');

		expect(await controlBatchesWhileRunning(a, q.sessionId)).toBe(1);
		// Nothing decides on the first call's cost: it waits for the turn's one settle batch.
		expect(atSecondCall).toEqual({ micros: 0, calls: 0 });
		const { turn } = await finished(q);
		expect(turn).toMatchObject({ status: 'committed', reply: REPLY, stopped: null });
		// Both calls counted and logged (the call log complete), nothing reserved.
		expect(await spent(a.app.control.db)).toEqual({ micros: 2 * CALL_USD * MICROS, calls: 2 });
		const logged = await a.app.control.db.select().from(controlSchema.llmCalls);
		expect(logged.map((c) => ({ model: c.model, costMicros: c.costMicros, sessionId: c.sessionId }))).toEqual([
			{ model: 'mock-model', costMicros: CALL_USD * MICROS, sessionId: q.sessionId },
			{ model: 'mock-model', costMicros: CALL_USD * MICROS, sessionId: q.sessionId }
		]);
		expect(await reservedMicros(a.app.control.db)).toBe(0);
	});

	it('with a warning configured, keeps one settle per call (with the next reservation)', async () => {
		const { apps } = await setup({ KANTERA_BUDGET_SESSION_WARN_USD: '1000' }, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const q = await queueTurn(a, 'user-0', 'plus');
		// The start (scopes, first reservation), the first call's settle with the second's reservation, the close.
		expect(await controlBatchesWhileRunning(a, q.sessionId)).toBe(3);
		expect((await finished(q)).turn?.status).toBe('committed');
		expect(await spent(a.app.control.db)).toEqual({ micros: 2 * CALL_USD * MICROS, calls: 2 });
	});
});

describe('the tier a turn was accepted under', () => {
	it('decides the model it plays, without reading the tier again: a turn accepted on plus plays the plus model after a change to free', async () => {
		const { mock, apps } = await setup({ KANTERA_FREE_MODEL: 'free-model' }, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const player = await createUser(a.app, { name: 'tier-player', password: 'a-long-password' }, { viaOperator: true });
		await setTier(a.app, player.id, 'plus');
		const q = await queueTurn(a, player.id, 'plus');
		// An admin moves the player to free between the accept and the run: this turn's quota was counted on plus.
		await setTier(a.app, player.id, 'free');
		a.app.runner.kick(q.sessionId);
		await a.app.runner.idle();

		expect((await finished(q)).turn).toMatchObject({ status: 'committed', tier: 'plus', model: 'mock-model' });
		expect(mock.requests.map((r) => r.openai?.model)).toEqual(['mock-model', 'mock-model']);
		// The next turn is accepted on free: it plays the free tier's model.
		const next = await queueTurn(a, player.id, 'free');
		a.app.runner.kick(next.sessionId);
		await a.app.runner.idle();
		expect(mock.requests.slice(2).map((r) => r.openai?.model)).toEqual(['free-model', 'free-model']);
	});

	it('is read at the turn’s start for a turn that does not carry it', async () => {
		const { mock, apps } = await setup({ KANTERA_FREE_MODEL: 'free-model' }, 1, (r) => twoCalls(r, 0));
		const a = only(apps);
		const player = await createUser(a.app, { name: 'tierless-player', password: 'a-long-password' }, { viaOperator: true });
		await setTier(a.app, player.id, 'free');
		const q = await queueTurn(a, player.id);
		a.app.runner.kick(q.sessionId);
		await a.app.runner.idle();
		expect((await finished(q)).turn).toMatchObject({ status: 'committed', tier: null });
		expect(mock.requests.map((r) => r.openai?.model)).toEqual(['free-model', 'free-model']);
	});
});

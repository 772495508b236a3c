/**
 * A server killed mid-turn (SIGKILL: no clean-up runs) leaves its turn "running" under a lease that
 * nobody renews. The next server must end it as interrupted by itself, and a client that only polls
 * the turn must see it end, without anyone opening the event stream or sending a turn; the turn is
 * never sent to the LLM again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { startMockLlm, type MockLlm } from '../../mock-llm';
import { mockLlmApp, turnHarness, type MockLlmApp } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { spawnTurnProcess, type TurnProcess } from '../../helpers/spawn-turn-process';
import { controlSchema, newId, sessionSchema } from '../../../src/lib/server/db';
import { acceptTurn, readEventsAfter, sessionsWithWork, ACCEPT_WINDOW_MS } from '../../../src/lib/server/turn';
import { apiHarness, type ApiHarness } from '../api/client';
import { bodyOf, Session, Turn } from '../api/shapes';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

/**
 * How long to wait for a child's 1 s lease to run out and be swept (or for its LLM call to arrive):
 * a deadline for polling, not a sleep, so generous that only a broken sweep reaches it.
 */
const SWEEP_WAIT_MS = 30_000;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > end) return value;
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** Starts the turn process on `dataDir` and waits until its turn's LLM call is in flight. */
async function startTurnProcess(
	dataDir: string,
	mock: MockLlm,
	sessionId: string,
	userId: string
): Promise<{ child: TurnProcess; turnId: string }> {
	const child = spawnTurnProcess({ dataDir, mock, userId, sessionIds: [sessionId] });
	cleanups.push(() => child.kill());
	const [turnId] = v.parse(v.tuple([v.string()]), await child.running);
	await until(
		async () => mock.requests.length,
		(n) => n > 0,
		SWEEP_WAIT_MS
	);
	return { child, turnId };
}

describe('after a crash mid-turn', () => {
	it('the restarted server marks the dead runner’s turn interrupted by itself, and never sends it again', async () => {
		const mock = await startMockLlm({ handler: () => ({ fault: { kind: 'hang' } }) });
		cleanups.push(() => mock.close());
		const { dir, remove } = tempDir();
		cleanups.push(remove);
		const sessionId = newId();
		const { child, turnId } = await startTurnProcess(dir, mock, sessionId, 'player-1');
		expect(mock.requests).toHaveLength(1);

		await child.kill();
		// The next server on the same databases; nobody opens the session, posts a turn or reads it.
		const restarted: MockLlmApp = await mockLlmApp('openai', {}, { dataDir: dir, mock });
		cleanups.push(() => restarted.cleanup());
		const row = await until(
			() =>
				restarted.app.sessions.use(
					sessionId,
					async (s) => (await s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, turnId)))[0]
				),
			(r) => r?.status !== 'running',
			SWEEP_WAIT_MS
		);
		expect(row).toMatchObject({ status: 'interrupted', leaseOwner: null });
		const events = await restarted.app.sessions.use(sessionId, (s) => readEventsAfter(s.db, 0));
		expect(events.map((e) => e.event.type)).toContain('turn.interrupted');
		expect(mock.requests).toHaveLength(1);
	}, 90_000);

	it('reading a turn whose lease ran out reports it interrupted, and writes that', async () => {
		const h: ApiHarness = await apiHarness();
		cleanups.push(() => h.cleanup());
		const api = h.as(h.alice);
		const id = (await bodyOf(await api.post('/api/v1/sessions', { title: 'The storm' }), Session)).id;
		// A turn another process was running when it died: its lease ran out a moment ago, and no runner here looks.
		const accepted = await h.app.sessions.use(id, (s) =>
			acceptTurn(h.app, s, { userId: h.alice.id, text: 'I wait for the storm.', idempotencyKey: 'dead-runner-01' })
		);
		await h.app.sessions.use(id, (s) =>
			s.write((tx) =>
				tx
					.update(sessionSchema.turns)
					.set({ status: 'running', leaseOwner: 'dead-process', leaseExpiresAt: Date.now() - 1, startedAt: Date.now() - 5_000 })
					.where(eq(sessionSchema.turns.id, accepted.turnId))
			)
		);

		const turn = await bodyOf(await api.get(`/api/v1/sessions/${id}/turns/${accepted.turnId}`), Turn);
		expect(turn).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/server stopped/) });
		const stored = await h.app.sessions.use(
			id,
			async (s) => (await s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, accepted.turnId)))[0]
		);
		expect(stored).toMatchObject({ status: 'interrupted', leaseOwner: null });
		const events = await h.app.sessions.use(id, (s) => readEventsAfter(s.db, 0));
		expect(events.filter((e) => e.event.type === 'turn.interrupted')).toHaveLength(1);
		// A second read changes nothing.
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}/turns/${accepted.turnId}`), Turn)).status).toBe('interrupted');
		expect(h.mock?.requests).toHaveLength(0);
	});
});

describe('the note of sessions with unfinished turns', () => {
	it('is written with the quota when a turn is accepted (not when refused), and dropped once the session is idle', async () => {
		const h = await turnHarness('openai', { KANTERA_FREE_TURNS_PER_DAY: '1' });
		cleanups.push(() => h.cleanup());
		const noted = () => sessionsWithWork(h.app.control.db);
		h.mock.script([{ text: 'Thunder.' }]);
		const accepted = await h.use((s) => acceptTurn(h.app, s, { userId: h.userId, text: 'I listen.', idempotencyKey: 'note-0001' }));
		expect(await noted()).toEqual([h.sessionId]);
		// The runner keeps a note younger than an accept may take to insert its turn (ACCEPT_WINDOW_MS).
		// Dated a minute ahead before the turn runs, it is still young when the runner looks at the end of
		// the turn and again below, however slow the machine: on a loaded one the turn alone can outlast
		// the window, and the note would go before the test looks.
		await h.app.control.db.update(controlSchema.sessionWork).set({ since: Date.now() + 60_000 });
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		expect((await h.turns()).find((t) => t.id === accepted.turnId)?.status).toBe('committed');
		// Idle, but the note is young: it stays for now…
		expect(await noted()).toEqual([h.sessionId]);
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		expect(await noted()).toEqual([h.sessionId]);
		// …and goes at the runner's next look once it is old enough.
		await h.app.control.db.update(controlSchema.sessionWork).set({ since: Date.now() - ACCEPT_WINDOW_MS - 1 });
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		expect(await noted()).toEqual([]);
		// Over the quota: refused, and nothing noted.
		await expect(
			h.use((s) => acceptTurn(h.app, s, { userId: h.userId, text: 'Again.', idempotencyKey: 'note-0002' }))
		).rejects.toMatchObject({ code: 'quota_exceeded' });
		expect(await noted()).toEqual([]);
	});
});

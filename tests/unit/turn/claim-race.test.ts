/**
 * Two app instances on one set of databases (two servers behind a load balancer, or a restart that
 * overlaps the old process) both get kicked for the same accepted turn: exactly one of them runs it.
 * The claim (accepted → running under a lease) is what decides; the loser finds nothing to claim.
 * In the remote project the two reach the databases through different URLs (secondInstanceEnv), so
 * their writes meet at the libSQL server's lock as two processes' would, and nothing may fail there.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMockLlm } from '../../mock-llm';
import { mockLlmApp } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { secondInstanceEnv } from '../../helpers/databases';
import { newId, sessionSchema } from '../../../src/lib/server/db';
import { log } from '../../../src/lib/server/records';
import { acceptTurn } from '../../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../../src/lib/server/session-setup';
import { readEventsAfter } from '../../../src/lib/server/events';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Rounds of the race: each round is one turn both instances are kicked for in the same tick. */
const ROUNDS = 6;

describe('two app instances on one session database', () => {
	// Both instances write one session file. They once died here: a write transaction waiting on the
	// other's lock blocked the process (the native busy wait is synchronous), its BEGIN failed and left
	// the connection poisoned (SQLITE_BUSY_SNAPSHOT, 517, on every later BEGIN). See db/write-lock.ts.
	it('race to claim each accepted turn, and exactly one runs it', async () => {
		const mock = await startMockLlm();
		cleanups.push(() => mock.close());
		const { dir, remove } = tempDir();
		cleanups.push(remove);
		const first = await mockLlmApp('openai', {}, { dataDir: dir, mock });
		cleanups.push(first.cleanup);
		const second = await mockLlmApp('openai', secondInstanceEnv(dir), { dataDir: dir, mock });
		cleanups.push(second.cleanup);
		expect(second.app.runner.owner).not.toBe(first.app.runner.owner);

		const sessionId = newId();
		const userId = newId();
		await first.app.sessions.create(sessionId);
		await first.app.sessions.use(sessionId, (s) =>
			s.write(async (tx) => {
				await ensureMission(tx, composeMission('en', 'Keep it short.'));
				await writeSettings(tx, { language: 'en' });
			})
		);
		mock.script(Array.from({ length: ROUNDS }, (_, i) => ({ text: `Reply ${i + 1}.` })));
		// Background work that fails (a runner's drain, an embedding pass) says so on stderr and nowhere else.
		const errors = vi.spyOn(console, 'error');
		cleanups.push(() => errors.mockRestore());

		for (let round = 1; round <= ROUNDS; round++) {
			// Alternate which instance accepts, so neither always has a head start.
			const accepting = round % 2 === 0 ? second : first;
			await accepting.app.sessions.use(sessionId, (s) =>
				acceptTurn(accepting.app, s, { userId, text: `Line ${round}.`, idempotencyKey: `race-${round}-key` })
			);
			first.app.runner.kick(sessionId);
			second.app.runner.kick(sessionId);
			await Promise.all([first.app.runner.idle(), second.app.runner.idle()]);
		}

		const { turns, events, messages } = await first.app.sessions.use(sessionId, async (s) => ({
			turns: await s.db.select().from(sessionSchema.turns),
			events: await readEventsAfter(s.db, 0),
			messages: await log.count(s.db)
		}));
		expect(turns).toHaveLength(ROUNDS);
		expect(turns.every((t) => t.status === 'committed')).toBe(true);
		for (const turn of turns) {
			const started = events.filter((e) => e.event.type === 'turn.started' && e.event.turnId === turn.id);
			const committed = events.filter((e) => e.event.type === 'turn.committed' && e.event.turnId === turn.id);
			expect([started.length, committed.length], turn.id).toEqual([1, 1]);
		}
		expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
		// One LLM call per turn: no turn was sent twice.
		expect(mock.requests).toHaveLength(ROUNDS);
		expect(messages).toBe(2 * ROUNDS);
	});
});

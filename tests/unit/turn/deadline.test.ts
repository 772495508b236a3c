/**
 * The whole turn has a deadline (KANTERA_TURN_TIMEOUT_S): a provider that never answers, or streams
 * forever, ends the turn as failed ("timed out") at the deadline, not after every retry of every
 * clock of the LLM client. The provider clocks here are production's, so only the turn deadline can
 * end these turns within the test's time limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { journal } from '../../../src/lib/server/records';
import { readEventsAfter } from '../../../src/lib/server/events';
import { DEFAULT_TIMEOUTS } from '../../../src/lib/server/llm';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const PRODUCTION_CLOCKS = { ...DEFAULT_TIMEOUTS };
/** Far longer than the 1 s deadline, far shorter than the provider's own minute-long clocks. */
const TEST_TIMEOUT_MS = 20_000;

async function until(check: () => boolean, what: string): Promise<void> {
	for (let i = 0; i < 200; i++) {
		if (check()) return;
		await new Promise((r) => setTimeout(r, 10));
	}
	throw new Error(`timed out waiting for ${what}`);
}

describe('the turn deadline', () => {
	it(
		'fails a turn whose provider never answers headers as timed out, after one request, and closes the connection',
		async () => {
			h = await turnHarness('openai', { KANTERA_TURN_TIMEOUT_S: '1' }, { timeouts: PRODUCTION_CLOCKS });
			h.mock.script([{ fault: { kind: 'hang' }, times: 4 }]);
			const turn = await h.play('Is anyone there?');
			expect(turn.status).toBe('failed');
			expect(turn.failureReason).toBe('timed_out');
			expect(h.mock.requests).toHaveLength(1);
			const harness = h;
			await until(() => harness.mock.openResponses() === 0, 'the hung request to be closed');
			const events = await h.use((s) => readEventsAfter(s.db, 0));
			expect(events.at(-1)?.event).toMatchObject({ type: 'turn.failed', reason: 'timed_out', retryable: true });
		},
		TEST_TIMEOUT_MS
	);

	it(
		'fails a turn whose stream never ends, writing nothing of it, and the next turn runs',
		async () => {
			h = await turnHarness('anthropic', { KANTERA_TURN_TIMEOUT_S: '1' }, { timeouts: PRODUCTION_CLOCKS });
			h.mock.script([
				{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'never kept' } }] },
				{ fault: { kind: 'endless', send: 'delta', intervalMs: 20 } }
			]);
			const turn = await h.play('Tell me everything.');
			expect(turn).toMatchObject({ status: 'failed', failureReason: 'timed_out' });
			expect(await h.use((s) => journal.recent(s.db, 10))).toEqual([]);
			h.mock.script([{ text: 'The bell rings once.' }]);
			expect((await h.play('I listen.')).status).toBe('committed');
		},
		TEST_TIMEOUT_MS
	);
});

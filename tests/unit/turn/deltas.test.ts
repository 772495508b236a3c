import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { EventBus, readEventsAfter } from '../../../src/lib/server/events';
import { DeltaWriter } from '../../../src/lib/server/turn/deltas';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

describe('DeltaWriter.take', () => {
	it('hands over the unwritten text after earlier flushes are in the log, and writes nothing itself', async () => {
		env = await testEnv();
		const id = await env.sessionId();
		await env.app.sessions.use(id, async (s) => {
			const w = new DeltaWriter(s, new EventBus(), 'turn-1');
			w.push('Once ');
			const flushed = w.flush();
			w.push('upon ');
			w.push('a time');
			const tail = await w.take();
			await flushed;
			expect(tail).toBe('upon a time');
			await w.close(); // nothing pending any more: no second write of the tail
			const events = await readEventsAfter(s.db, 0);
			expect(events.map((e) => e.event)).toEqual([{ type: 'text.delta', turnId: 'turn-1', text: 'Once ' }]);
		});
	});

	it('a tail pushed back after a failed commit is written by the next flush', async () => {
		env = await testEnv();
		const id = await env.sessionId();
		await env.app.sessions.use(id, async (s) => {
			const w = new DeltaWriter(s, new EventBus(), 'turn-2');
			w.push('lost?');
			const tail = await w.take();
			w.push(tail);
			await w.flush();
			const events = await readEventsAfter(s.db, 0);
			expect(events.map((e) => e.event)).toEqual([{ type: 'text.delta', turnId: 'turn-2', text: 'lost?' }]);
		});
	});
});

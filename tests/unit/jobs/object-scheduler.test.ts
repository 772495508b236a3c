/**
 * A session's own object on an isolate host (jobs/object-scheduler.ts), on its own: work in progress sets the
 * object's alarm, the alarm's handler holds the object until that work ends and sets the alarm again for
 * what is still due; another session's work is handed to that session's object, by the object and by the
 * Worker's request scheduler alike, and the session loops follow.
 */
import { describe, expect, it } from 'vitest';
import { ALARM_LEAD_MS, ObjectScheduler, RequestScheduler, SessionLoop } from '../../../src/lib/server/jobs';

const OWN = 'aaaaaaaaaaaaaaaaaaaa';
const OTHER = 'bbbbbbbbbbbbbbbbbbbb';

/** The object's alarm as the host keeps it: the times it was set to, in order. */
function objectAlarm(): { set: (at: number) => Promise<void>; times: number[] } {
	const times: number[] = [];
	return { times, set: async (at) => void times.push(at) };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
	const held: { resolve?: () => void } = {};
	const promise = new Promise<void>((r) => (held.resolve = r));
	return { promise, resolve: () => held.resolve?.() };
}

function objectScheduler(opts: { now?: () => number; holdMs?: number } = {}) {
	const alarm = objectAlarm();
	const handedOff: string[] = [];
	const scheduler = new ObjectScheduler({
		sessionId: OWN,
		alarm,
		handOff: async (id) => void handedOff.push(id),
		...opts
	});
	return { scheduler, alarm, handedOff };
}

describe('the session object’s scheduler', () => {
	it('sets the alarm a moment after work starts, once while the alarm is due sooner', () => {
		let now = 1_000;
		const { scheduler, alarm } = objectScheduler({ now: () => now });
		scheduler.keep(new Promise(() => undefined));
		now += 100;
		scheduler.keep(new Promise(() => undefined));
		expect(alarm.times).toEqual([1_000 + ALARM_LEAD_MS]);
		expect(scheduler.busy).toBe(true);
	});

	it('holds the alarm’s handler until the work in progress has ended, and sets nothing after', async () => {
		const { scheduler, alarm } = objectScheduler();
		const turn = deferred();
		scheduler.keep(turn.promise);
		let handled = false;
		const handler = scheduler.onAlarm().then(() => (handled = true));
		await new Promise((r) => setTimeout(r, 20));
		expect(handled).toBe(false);
		turn.resolve();
		await handler;
		expect(scheduler.busy).toBe(false);
		expect(alarm.times).toHaveLength(1);
	});

	it('lets go after holdMs and sets the alarm again for the work still running', async () => {
		const { scheduler, alarm } = objectScheduler({ holdMs: 30 });
		scheduler.keep(new Promise(() => undefined));
		await scheduler.onAlarm();
		expect(scheduler.busy).toBe(true);
		expect(alarm.times).toHaveLength(2);
	});

	it('sets the alarm for work due later, so an object evicted meanwhile is started again then', async () => {
		let now = 5_000;
		const { scheduler, alarm } = objectScheduler({ now: () => now });
		let ran = 0;
		scheduler.after('lease', 60_000, () => ran++);
		expect(alarm.times).toEqual([65_000]);
		// The alarm fired early (a retry, say): the timer is still due, and the alarm is set for it again.
		now = 6_000;
		await scheduler.onAlarm();
		expect(alarm.times).toEqual([65_000, 65_000]);
		scheduler.cancel('lease');
		scheduler.stop();
		expect(ran).toBe(0);
	});

	it('runs only its own session: another session’s work is handed to that session’s object', async () => {
		const { scheduler, handedOff } = objectScheduler();
		expect(scheduler.runsHere(OWN)).toBe(true);
		expect(scheduler.runsHere(OTHER)).toBe(false);
		scheduler.visit(OWN);
		scheduler.visit(OTHER);
		await scheduler.onAlarm();
		expect(handedOff).toEqual([OTHER]);
	});

	it('runs no schedules (backups and the Turso sweeper are not a session’s work)', () => {
		const { scheduler } = objectScheduler();
		expect(() => scheduler.repeat()).toThrow(/no schedules/);
		expect(() => scheduler.cron()).toThrow(/no schedules/);
	});
});

describe('session loops where each session has an object of its own', () => {
	it('a kick for another session hands it over instead of draining here; this session’s drains here', async () => {
		const { scheduler, handedOff } = objectScheduler();
		const drained: string[] = [];
		const loop = new SessionLoop({ name: 'turn runner', scheduler, drain: async (id) => void drained.push(id) });
		loop.kick(OTHER);
		loop.kick(OWN);
		await loop.idle();
		await scheduler.onAlarm();
		expect(drained).toEqual([OWN]);
		expect(handedOff).toEqual([OTHER]);
	});

	it('the Worker’s request scheduler hands every session over and drains none itself', async () => {
		const handedOff: string[] = [];
		const scheduler = new RequestScheduler({ handOff: async (id) => void handedOff.push(id) });
		let resumed = 0;
		scheduler.onVisit(async () => {
			resumed++;
			return true;
		});
		const drained: string[] = [];
		const loop = new SessionLoop({ name: 'image runner', scheduler, drain: async (id) => void drained.push(id) });
		// No session runs on the Worker: its scheduler answers the same for any.
		expect(scheduler.runsHere()).toBe(false);
		loop.kick(OWN);
		scheduler.visit(OTHER);
		await loop.idle();
		expect(drained).toEqual([]);
		expect(handedOff).toEqual([OWN, OTHER]);
		expect(resumed).toBe(0);
	});

	it('a loop that is not per session (the preset covers) runs where it is kicked', async () => {
		const scheduler = new RequestScheduler({ handOff: async () => undefined });
		const drained: string[] = [];
		const loop = new SessionLoop({ name: 'cover runner', scheduler, drain: async (id) => void drained.push(id), perSession: false });
		loop.kick('covers');
		await loop.idle();
		expect(drained).toEqual(['covers']);
	});
});

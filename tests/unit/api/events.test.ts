/**
 * The SSE endpoint: live events, resume with Last-Event-ID (every missed event exactly once), keep-alives,
 * clean-up; and the session's shared feed: one log reader for all of its streams, each at its own position.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, Session } from './shapes';
import { eventFrames, sseReader } from './sse-reader';
import { eq } from 'drizzle-orm';
import {
	appendEvent,
	readEventsAfter,
	openEventStream,
	EventFeeds,
	SSE_BATCH,
	SSE_KEEPALIVE_MS,
	type FeedTiming
} from '../../../src/lib/server/events';
import { controlSchema, type SessionDb } from '../../../src/lib/server/db';
import { parseConfig } from '../../../src/lib/server/config';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

async function harness(env?: Record<string, string>, eventFeeds?: Partial<FeedTiming>): Promise<ApiHarness> {
	h = await apiHarness({ ...(env ? { env } : {}), ...(eventFeeds ? { app: { overrides: { eventFeeds } } } : {}) });
	return h;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newSession(api: Caller): Promise<{ id: string; lastEventId: number }> {
	const s = await bodyOf(await api.post('/api/v1/sessions', { title: 'Streams' }), Session);
	return { id: s.id, lastEventId: s.lastEventId };
}

let keySeq = 0;
const key = () => `sse-key-${String(++keySeq).padStart(6, '0')}`;

const EventData = v.looseObject({
	type: v.string(),
	turnId: v.optional(v.string()),
	text: v.optional(v.string()),
	reply: v.optional(v.string())
});

describe('GET …/events', () => {
	it('streams a turn live: ids increasing, event name = data type, with the SSE headers', async () => {
		const { app, alice, as, mock } = await harness();
		mock?.script([{ text: 'Gulls cry over the pier.' }]);
		const api = as(alice);
		const { id } = await newSession(api);
		const res = await api.get(`/api/v1/sessions/${id}/events`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/event-stream');
		expect(res.headers.get('cache-control')).toBe('no-store');
		expect(res.headers.get('x-accel-buffering')).toBe('no');
		const stream = sseReader(res);
		const hello = await stream.next();
		expect(hello?.id).toBe('0');
		expect(hello?.data).toBeUndefined();
		expect(Number(hello?.retry)).toBeGreaterThan(0);
		expect(app.feeds.streams(id)).toBe(1);
		expect(app.bus.listenerCount(id)).toBe(1);

		const turn = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Listen.', idempotencyKey: key() }), AcceptedTurn);
		const events = eventFrames(await stream.until((f) => f.event === 'turn.committed'));
		await stream.close();
		expect(app.feeds.streams(id)).toBe(0);
		expect(app.bus.listenerCount(id)).toBe(0);

		const ids = events.map((e) => e.id);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		expect(new Set(ids).size).toBe(ids.length);
		const data = events.map((e) => v.parse(EventData, e.data));
		for (const [i, e] of events.entries()) expect(data[i]?.type).toBe(e.event);
		expect(data.every((d) => d.turnId === turn.turnId)).toBe(true);
		expect(data[0]?.type).toBe('turn.accepted');
		expect(data[1]?.type).toBe('turn.started');
		expect(data.at(-1)).toMatchObject({ type: 'turn.committed', reply: 'Gulls cry over the pier.' });
		expect(
			data
				.filter((d) => d.type === 'text.delta')
				.map((d) => d.text)
				.join('')
		).toBe('Gulls cry over the pier.');
	});

	it('resumes after a disconnect mid-turn with Last-Event-ID: every missed event exactly once, in order', async () => {
		const { app, alice, as, mock } = await harness();
		const reply = 'The tide turns, and the old boat drifts out past the breakwater into the grey morning.';
		mock?.script([{ text: reply, frameDelayMs: 25 }]);
		const api = as(alice);
		const { id, lastEventId: start } = await newSession(api);

		const first = sseReader(await api.get(`/api/v1/sessions/${id}/events?lastEventId=${start}`));
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Watch the sea.', idempotencyKey: key() }),
			AcceptedTurn
		);
		const before = eventFrames(await first.until((f) => f.event === 'text.delta'));
		await first.close();
		expect(app.bus.listenerCount(id)).toBe(0);
		const lastSeen = before.at(-1)?.id ?? 0;

		// The turn goes on without the client.
		await waitForTurn(api, id, turn.turnId);
		await app.runner.idle();

		// EventSource sends the header on reconnect while the URL keeps its first ?lastEventId: the header wins.
		const second = sseReader(
			await api.get(`/api/v1/sessions/${id}/events?lastEventId=${start}`, { headers: { 'last-event-id': String(lastSeen) } })
		);
		const hello = await second.next();
		expect(hello?.id).toBe(String(lastSeen));
		const after = eventFrames(await second.until((f) => f.event === 'turn.committed'));
		await second.close();

		const logged = await app.sessions.use(id, (s) => readEventsAfter(s.db, start));
		expect(logged.length).toBeGreaterThan(before.length + 1);
		const received = [...before, ...after];
		expect(received.map((e) => e.id)).toEqual(logged.map((e) => e.id));
		expect(received.map((e) => e.data)).toEqual(logged.map((e) => e.event));
		const text = received.map((e) => v.parse(EventData, e.data)).filter((d) => d.type === 'text.delta');
		expect(text.map((d) => d.text).join('')).toBe(reply);
		expect(app.bus.listenerCount(id)).toBe(0);
	});

	it('catches up a client far behind in batches, each event once and in order', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const { id } = await newSession(api);
		const total = SSE_BATCH * 2 + 37;
		await app.sessions.use(id, (s) =>
			s.write(async (tx) => {
				for (let i = 0; i < total; i++) await appendEvent(tx, { type: 'budget.warning', scope: 'session', message: `note ${i}` });
			})
		);
		const stream = sseReader(await api.get(`/api/v1/sessions/${id}/events`, { headers: { 'last-event-id': '0' } }));
		let count = 0;
		const frames = await stream.until((f) => f.id !== undefined && f.data !== undefined && ++count === total);
		await stream.close();
		const events = eventFrames(frames);
		expect(events.map((e) => e.data)).toEqual(
			Array.from({ length: total }, (_, i) => ({ type: 'budget.warning', scope: 'session', message: `note ${i}` }))
		);
		expect(events.map((e) => e.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
	});

	it('finds events written by another process through the slow poll (no bus wake-up)', async () => {
		const { app, alice, as } = await harness();
		const { id } = await newSession(as(alice));
		const feeds = new EventFeeds({ sessions: app.sessions, bus: app.bus }, { pollMs: 20 });
		const res = await openEventStream({ feeds, sessionId: id, after: 0 });
		const stream = sseReader(res);
		await stream.next();
		// Written without bus.notify, as another server process would.
		await app.sessions.use(id, (s) => s.write((tx) => appendEvent(tx, { type: 'turn.interrupted', turnId: 'elsewhere' })));
		const frames = await stream.until((f) => f.event === 'turn.interrupted');
		expect(eventFrames(frames).map((e) => e.data)).toEqual([{ type: 'turn.interrupted', turnId: 'elsewhere' }]);
		await stream.close();
		expect(feeds.active()).toBe(0);
		expect(app.bus.listenerCount(id)).toBe(0);
	});

	it('sends keep-alive comments on a quiet stream (interval injected; the default stays within 8 s)', async () => {
		expect(SSE_KEEPALIVE_MS).toBeLessThanOrEqual(8_000);
		const { app, alice, as } = await harness();
		const { id } = await newSession(as(alice));
		const stream = sseReader(await openEventStream({ feeds: app.feeds, sessionId: id, after: undefined, keepAliveMs: 10 }));
		const frames = await stream.until((f) => f.comments.includes('keep-alive') && f.data === undefined);
		const more = await stream.until((f) => f.comments.includes('keep-alive'));
		expect(frames.length + more.length).toBeGreaterThanOrEqual(2);
		await stream.close();
		expect(app.bus.listenerCount(id)).toBe(0);
	});

	it('KANTERA_SSE_KEEPALIVE_MS sets the endpoint’s keep-alive interval; 0 sends none', async () => {
		expect(parseConfig({}).sseKeepAliveMs).toBe(SSE_KEEPALIVE_MS);
		const often = await apiHarness({ env: { KANTERA_SSE_KEEPALIVE_MS: '5' } });
		try {
			const { id } = await newSession(often.as(often.alice));
			const stream = sseReader(await often.as(often.alice).get(`/api/v1/sessions/${id}/events`));
			await stream.next();
			await new Promise((resolve) => setTimeout(resolve, 300));
			await often.app.sessions.use(id, (s) => s.write((tx) => appendEvent(tx, { type: 'turn.interrupted', turnId: 'chatty' })));
			// Dozens at 5 ms; the default interval (7.5 s) would send none in 300 ms.
			const frames = await stream.until((f) => f.event === 'turn.interrupted');
			expect(frames.filter((f) => f.comments.includes('keep-alive')).length).toBeGreaterThanOrEqual(2);
			await stream.close();
		} finally {
			await often.cleanup();
		}
		const { app, alice, as } = await harness({ KANTERA_SSE_KEEPALIVE_MS: '0' });
		const { id } = await newSession(as(alice));
		const stream = sseReader(await as(alice).get(`/api/v1/sessions/${id}/events`));
		await stream.next();
		// Quiet for a while, then one event: nothing but that event may have come in between.
		await new Promise((resolve) => setTimeout(resolve, 200));
		await app.sessions.use(id, (s) => s.write((tx) => appendEvent(tx, { type: 'turn.interrupted', turnId: 'quiet' })));
		const frames = await stream.until((f) => f.event === 'turn.interrupted');
		expect(frames.filter((f) => f.comments.includes('keep-alive'))).toEqual([]);
		await stream.close();
	});

	it('cleans up when the request is aborted, and ends the stream at once when the session is deleted here', async () => {
		// No access check in the test's time: only the deletion's own signal can end the stream.
		const { app, alice, as } = await harness(undefined, { accessCheckMs: 3_600_000 });
		const api = as(alice);
		const { id } = await newSession(api);
		const abort = new AbortController();
		const aborted = sseReader(await api.get(`/api/v1/sessions/${id}/events`, { signal: abort.signal }));
		// Open once their first presence frame (who is here) has come.
		await aborted.until((f) => f.event === 'presence');
		const kept = sseReader(await api.get(`/api/v1/sessions/${id}/events`));
		await kept.until((f) => f.event === 'presence');
		expect(app.feeds.streams(id)).toBe(2);
		// One feed for both streams: one listener on the bus.
		expect(app.bus.listenerCount(id)).toBe(1);
		abort.abort();
		expect(app.feeds.streams(id)).toBe(1);
		expect(await aborted.next()).toBeUndefined();

		expect((await api.delete(`/api/v1/sessions/${id}`)).status).toBe(204);
		expect(await kept.next()).toBeUndefined();
		expect(app.feeds.active()).toBe(0);
		expect(app.bus.listenerCount(id)).toBe(0);
	});

	it('clamps a Last-Event-ID from the future and refuses a malformed one', async () => {
		const { alice, as, mock } = await harness();
		mock?.script([{ text: 'Still here.' }]);
		const api = as(alice);
		const { id } = await newSession(api);
		const bad = await api.get(`/api/v1/sessions/${id}/events`, { headers: { 'last-event-id': 'yesterday' } });
		expect(bad.status).toBe(400);
		expect(await bodyOf(bad, ErrorBody)).toMatchObject({ code: 'INVALID_LAST_EVENT_ID' });

		const stream = sseReader(await api.get(`/api/v1/sessions/${id}/events`, { headers: { 'last-event-id': '999999' } }));
		expect((await stream.next())?.id).toBe('0');
		await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Hello.', idempotencyKey: key() });
		const events = eventFrames(await stream.until((f) => f.event === 'turn.committed'));
		expect(events[0]).toMatchObject({ id: 1, event: 'turn.accepted' });
		await stream.close();
	});

	it('ends the streams of a session deleted by another process at the next access check; another user gets a 404', async () => {
		const { app, alice, bob, as } = await harness(undefined, { accessCheckMs: 50 });
		const { id } = await newSession(as(alice));
		const foreign = await as(bob).get(`/api/v1/sessions/${id}/events`);
		expect(foreign.status).toBe(404);
		expect(await bodyOf(foreign, ErrorBody)).toMatchObject({ code: 'NOT_FOUND' });
		const streams = [
			sseReader(await as(alice).get(`/api/v1/sessions/${id}/events`)),
			sseReader(await as(alice).get(`/api/v1/sessions/${id}/events`))
		];
		for (const stream of streams) await stream.until((f) => f.event === 'presence');
		expect(app.feeds.streams(id)).toBe(2);
		// Deleted as another process deletes it: the index row goes, and no signal reaches this process.
		await app.control.db.delete(controlSchema.playSessions).where(eq(controlSchema.playSessions.id, id));
		for (const stream of streams) expect(await stream.next()).toBeUndefined();
		expect(app.feeds.active()).toBe(0);
		expect(app.bus.listenerCount(id)).toBe(0);
	});
});

/** The session pool, counting the times the log is opened: each is one read (one round trip when remote). */
function counting(sessions: ApiHarness['app']['sessions']) {
	const counter = {
		reads: 0,
		use<T>(id: string, fn: (s: SessionDb) => Promise<T>): Promise<T> {
			counter.reads++;
			return sessions.use(id, fn);
		}
	};
	return counter;
}

describe('the session feed', () => {
	const POLL_MS = 100;

	it('reads the log once per interval for all of a session’s streams; each stream gets the rows after its own id, in order, once', async () => {
		const { app, alice, as } = await harness();
		const { id } = await newSession(as(alice));
		const write = (from: number, n: number) =>
			app.sessions.use(id, (s) =>
				s.write(async (tx) => {
					for (let i = from; i < from + n; i++) await appendEvent(tx, { type: 'budget.warning', scope: 'session', message: `note ${i}` });
				})
			);
		await write(0, 30);
		const sessions = counting(app.sessions);
		const feeds = new EventFeeds({ sessions, bus: app.bus }, { pollMs: POLL_MS, accessCheckMs: 60_000 });
		const afters = [undefined, 0, 10, 25, 30, undefined, 29];
		const streams = [];
		for (const after of afters) {
			const stream = sseReader(await openEventStream({ feeds, sessionId: id, after }));
			await stream.next();
			streams.push(stream);
		}
		expect(feeds.streams(id)).toBe(afters.length);
		expect(app.bus.listenerCount(id)).toBe(1);

		// Quiet: the streams wait, the feed alone looks at the log.
		await sleep(300);
		sessions.reads = 0;
		const started = Date.now();
		await sleep(1_000);
		const intervals = (Date.now() - started) / POLL_MS;
		const quietReads = sessions.reads;
		expect(quietReads).toBeGreaterThanOrEqual(2);
		// One per interval (and a little slack for a late timer); a stream polling by itself would read seven times as often.
		expect(quietReads).toBeLessThanOrEqual(intervals + 2);

		// Written by this process (the bus wakes the feed) and by another one (the poll finds it).
		await write(30, 5);
		app.bus.notify(id);
		await write(35, 5);
		const all = await app.sessions.use(id, (s) => readEventsAfter(s.db, 0));
		expect(all).toHaveLength(40);
		for (const [i, stream] of streams.entries()) {
			const after = afters[i] ?? 30;
			const frames = await stream.until((f) => f.id === '40');
			const got = eventFrames(frames);
			expect(got.map((e) => e.id)).toEqual(all.filter((e) => e.id > after).map((e) => e.id));
			expect(got.map((e) => e.data)).toEqual(all.filter((e) => e.id > after).map((e) => e.event));
		}

		// A stream that reconnects with the Last-Event-ID it had gets the rest, and nothing twice.
		await streams[2]?.close();
		const resumed = sseReader(await openEventStream({ feeds, sessionId: id, after: 37 }));
		expect((await resumed.next())?.id).toBe('37');
		await write(40, 1);
		expect(eventFrames(await resumed.until((f) => f.id === '41')).map((e) => e.id)).toEqual([38, 39, 40, 41]);
		await resumed.close();
		for (const stream of streams) await stream.close();
	});

	it('stops when the last stream closes: no bus listener, no more reads', async () => {
		const { app, alice, as } = await harness();
		const { id } = await newSession(as(alice));
		const sessions = counting(app.sessions);
		const feeds = new EventFeeds({ sessions, bus: app.bus }, { pollMs: POLL_MS });
		const streams = [];
		for (let i = 0; i < 3; i++) {
			const stream = sseReader(await openEventStream({ feeds, sessionId: id, after: undefined }));
			await stream.next();
			streams.push(stream);
		}
		await sleep(3 * POLL_MS);
		expect(sessions.reads).toBeGreaterThan(3);
		for (const stream of streams.slice(1)) await stream.close();
		expect(feeds.active()).toBe(1);
		await streams[0]?.close();
		expect(feeds.active()).toBe(0);
		expect(app.bus.listenerCount(id)).toBe(0);
		const after = sessions.reads;
		await sleep(5 * POLL_MS);
		expect(sessions.reads).toBe(after);
		// A new stream starts a new feed.
		const again = sseReader(await openEventStream({ feeds, sessionId: id, after: undefined }));
		await again.next();
		expect(feeds.active()).toBe(1);
		await again.close();
		expect(feeds.active()).toBe(0);
	});

	it('takes a bus wake-up for the interval’s read: no poll on top of it, one read for all streams', async () => {
		const { app, alice, as } = await harness();
		const { id } = await newSession(as(alice));
		const sessions = counting(app.sessions);
		const feeds = new EventFeeds({ sessions, bus: app.bus }, { pollMs: 4 * POLL_MS, accessCheckMs: 60_000 });
		const streams = [];
		for (let i = 0; i < 5; i++) {
			const stream = sseReader(await openEventStream({ feeds, sessionId: id, after: undefined }));
			await stream.next();
			streams.push(stream);
		}
		await sleep(POLL_MS);
		sessions.reads = 0;
		// Busy: this process writes (here: says it wrote) every 50 ms, as a turn streaming its reply does.
		let notifies = 0;
		const busy = setInterval(() => {
			notifies++;
			app.bus.notify(id);
		}, 50);
		await sleep(2_000);
		clearInterval(busy);
		await sleep(POLL_MS);
		// At most one read per wake-up (fewer when they come during a read), and none from the polls meanwhile.
		expect(sessions.reads).toBeGreaterThan(0);
		expect(sessions.reads).toBeLessThanOrEqual(notifies);
		for (const stream of streams) await stream.close();
	});
});

/**
 * The request-scoped scheduler (`KANTERA_SCHEDULER=request`, for isolate hosts) with the real app, the
 * real routes and real libSQL files. A host is stood in for by `Isolate`: each request runs the way the
 * request hook runs it, and what the request hands to `waitUntil` is held here, as the host holds it.
 * No timer of the process moves work on in this mode: only requests and event-stream polls do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { startMockLlm } from '../../mock-llm';
import { spawnTurnProcess } from '../../helpers/spawn-turn-process';
import { apiHarness, type ApiHarness } from '../api/client';
import { AcceptedTurn, bodyOf, Session, Turn } from '../api/shapes';
import { eventFrames, sseReader } from '../api/sse-reader';
import { orderSprite, ScriptedProvider, TEST_POLICY } from '../images/helpers';
import type { App } from '../../../src/lib/server/app';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { inRequest, RequestScheduler, waitUntilOf } from '../../../src/lib/server/jobs';
import { acceptTurn, sessionsWithWork, ACCEPT_WINDOW_MS } from '../../../src/lib/server/turn';
import { readEventsAfter } from '../../../src/lib/server/events';
import { createApp } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { createUser } from '../../../src/lib/server/auth';
import { startSession } from '../../../src/lib/server/sessions';
import { startHranaServer } from '../../hrana';
import { tempDir } from '../../helpers/env';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

/** One instance of an isolate host, as far as the app can tell: requests, and the work they keep alive. */
class Isolate {
	readonly held: Promise<unknown>[] = [];
	private readonly platform = { ctx: { waitUntil: (p: Promise<unknown>) => void this.held.push(p) } };

	constructor(private readonly app: App) {}

	/** Runs a request as the request hook does. */
	request<T>(fn: () => Promise<T>): Promise<T> {
		return inRequest(waitUntilOf(this.platform), () => {
			this.app.scheduler.tick();
			return fn();
		});
	}

	/** What the host does after the response: waits for everything handed to waitUntil (and what that handed on). */
	async settle(): Promise<void> {
		while (this.held.length > 0) await Promise.allSettled(this.held.splice(0));
	}
}

async function harness(opts: Parameters<typeof apiHarness>[0]): Promise<ApiHarness> {
	const h = await apiHarness({ ...opts, env: { KANTERA_SCHEDULER: 'request', ...opts?.env } });
	cleanups.push(() => h.cleanup());
	expect(h.app.scheduler.mode).toBe('request');
	return h;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > end) return value;
		await sleep(25);
	}
}

const turnRow = (app: App, sessionId: string, turnId: string) =>
	app.sessions.use(sessionId, async (s) => (await s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, turnId)))[0]);

describe('the request-scoped scheduler', () => {
	it('runs a posted turn under that request’s waitUntil, and leaves what is due later to the next visit', async () => {
		let open: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const mock = await startMockLlm({
			handler: async () => {
				await gate;
				return { text: 'The rain stops.' };
			}
		});
		cleanups.push(() => mock.close());
		// resumeEveryMs 0: every visit resumes (production spaces them RESUME_EVERY_MS apart).
		const h = await harness({
			// A daily quota, so that accepting the turn notes that the session has work (see turn/work.ts).
			env: { KANTERA_FREE_TURNS_PER_DAY: '5' },
			app: { mock, overrides: { scheduler: new RequestScheduler({ resumeEveryMs: 0 }) } }
		});
		const api = h.as(h.alice);
		const first = new Isolate(h.app);
		const id = (await bodyOf(await first.request(() => api.post('/api/v1/sessions', { title: 'Rain' })), Session)).id;

		const res = await first.request(() =>
			api.post(`/api/v1/sessions/${id}/turns`, { text: 'I wait.', idempotencyKey: 'request-mode-0001' })
		);
		expect(res.status).toBe(202);
		const { turnId } = await bodyOf(res, AcceptedTurn);
		// The response is out and the turn is still going: it lives in what the request handed to waitUntil.
		expect(first.held.length).toBeGreaterThan(0);
		await until(
			async () => mock.requests.length,
			(n) => n === 1
		);
		expect((await turnRow(h.app, id, turnId))?.status).toBe('running');
		// The note that the session has work is dropped only once it is old enough (ACCEPT_WINDOW_MS): dated
		// a minute ahead, it is still young when the runner looks at the end of the turn, however slow the machine.
		await h.app.control.db.update(controlSchema.sessionWork).set({ since: Date.now() + 60_000 });
		open();
		await first.settle();
		expect((await turnRow(h.app, id, turnId))?.status).toBe('committed');

		// A server sets a timer to look again; here nothing is set, and the note waits for the session's next visit.
		expect(await sessionsWithWork(h.app.control.db)).toEqual([id]);
		await h.app.control.db.update(controlSchema.sessionWork).set({ since: Date.now() - ACCEPT_WINDOW_MS - 1 });
		await sleep(300);
		expect(await sessionsWithWork(h.app.control.db)).toEqual([id]);
		const later = new Isolate(h.app);
		const turn = await bodyOf(await later.request(() => api.get(`/api/v1/sessions/${id}/turns/${turnId}`)), Turn);
		expect(turn.status).toBe('committed');
		expect(later.held.length).toBeGreaterThan(0);
		await later.settle();
		expect(await sessionsWithWork(h.app.control.db)).toEqual([]);
		expect(mock.requests).toHaveLength(1);
	});

	it('retries an image waiting out its backoff from the polls of an open event stream, under that stream’s waitUntil', async () => {
		const clock = { now: Date.UTC(2030, 0, 1) };
		const provider = new ScriptedProvider(['retryable']);
		const h = await harness({
			app: {
				overrides: {
					scheduler: new RequestScheduler({ now: () => clock.now, resumeEveryMs: 0 }),
					images: { provider, policy: TEST_POLICY, now: () => clock.now }
				}
			}
		});
		const api = h.as(h.alice);
		const first = new Isolate(h.app);
		const id = (await bodyOf(await first.request(() => api.post('/api/v1/sessions', { title: 'Portraits' })), Session)).id;
		const orderId = await orderSprite(h.app, id, 'Ilse');
		const order = () =>
			h.app.sessions.use(
				id,
				async (s) => (await s.db.select().from(sessionSchema.imageOrders).where(eq(sessionSchema.imageOrders.id, orderId)))[0]
			);
		await first.request(async () => h.app.images.kick(id));
		await first.settle();
		expect(provider.requests).toHaveLength(1);
		expect(await order()).toMatchObject({ status: 'pending', attempts: 1 });

		// The player's page watches the session. Opening the stream finds the retry not due yet.
		const watching = new Isolate(h.app);
		const stream = sseReader(await watching.request(() => api.get(`/api/v1/sessions/${id}/events`)));
		cleanups.push(() => stream.close());
		await watching.settle();
		await sleep(1_200);
		expect(provider.requests).toHaveLength(1);
		// The backoff is over. No timer is waiting for it: the stream's next poll is what runs it.
		clock.now += 10_000_000;
		const frames = await stream.until((f) => f.event === 'image.ready');
		expect(eventFrames(frames).map((e) => e.event)).toContain('image.ready');
		expect(watching.held.length).toBeGreaterThan(0);
		await stream.close();
		await watching.settle();
		expect(provider.requests).toHaveLength(2);
		expect(await order()).toMatchObject({ status: 'done', attempts: 2 });
	});
});

describe('many open streams on one session', () => {
	it('share one resume per interval: a cheap look while nothing waits, the runners woken once when something does', async () => {
		const mock = await startMockLlm({ handler: () => ({ text: 'The lamp flickers.' }) });
		cleanups.push(() => mock.close());
		const EVERY_MS = 1_500;
		const STREAMS = 6;
		const h = await harness({ app: { mock, overrides: { scheduler: new RequestScheduler({ resumeEveryMs: EVERY_MS }) } } });
		const api = h.as(h.alice);
		const id = (await bodyOf(await new Isolate(h.app).request(() => api.post('/api/v1/sessions', { title: 'Lamps' })), Session)).id;
		const before = h.app.scheduler.resumeCounts();
		// Six tabs watch the session, each stream on an instance of its own; each polls every second.
		const started = Date.now();
		const watchers = Array.from({ length: STREAMS }, () => new Isolate(h.app));
		const streams = await Promise.all(
			watchers.map(async (isolate) => sseReader(await isolate.request(() => api.get(`/api/v1/sessions/${id}/events`))))
		);
		for (const stream of streams) cleanups.push(() => stream.close());
		await sleep(4_000);
		const idle = h.app.scheduler.resumeCounts();
		const intervals = Math.ceil((Date.now() - started) / EVERY_MS);
		// Every poll of every stream visits (about 6 × 4); together they start one look per interval, and none finds work.
		expect(idle.visits - before.visits).toBeGreaterThanOrEqual(STREAMS * 3);
		expect(idle.checks - before.checks).toBeGreaterThanOrEqual(2);
		expect(idle.checks - before.checks).toBeLessThanOrEqual(intervals);
		expect(idle.resumed).toBe(before.resumed);
		expect(h.app.runner.load()).toMatchObject({ working: 0, waiting: 0 });

		// An instance accepted a turn and was dropped before its waitUntil work began: the next look finds it.
		const queued = (
			await h.app.sessions.use(id, (s) =>
				acceptTurn(h.app, s, { userId: h.alice.id, text: 'I trim the wick.', idempotencyKey: 'many-streams-001' })
			)
		).turnId;
		await Promise.all(streams.map((stream) => stream.until((f) => f.data !== undefined && f.data.includes('"turn.committed"'))));
		const woken = h.app.scheduler.resumeCounts();
		expect(woken.resumed - idle.resumed).toBe(1);
		for (const stream of streams) await stream.close();
		for (const isolate of watchers) await isolate.settle();
		expect((await turnRow(h.app, id, queued))?.status).toBe('committed');
		// Run once, though six streams were polling when it was found.
		expect(mock.requests).toHaveLength(1);
		const events = await h.app.sessions.use(id, (s) => readEventsAfter(s.db, 0));
		expect(events.filter((e) => e.event.type === 'turn.started')).toHaveLength(1);
	}, 60_000);
});

describe('one feed polling for the streams of several requests', () => {
	it('visits under each stream’s own request: a closed stream’s request keeps nothing more', async () => {
		const h = await harness({
			app: { overrides: { scheduler: new RequestScheduler({ resumeEveryMs: 0 }), eventFeeds: { pollMs: 50 } } }
		});
		const api = h.as(h.alice);
		const id = (await bodyOf(await new Isolate(h.app).request(() => api.post('/api/v1/sessions', { title: 'Two tabs' })), Session)).id;
		// The first stream's request is where the session's feed, and its timer, were started.
		const first = new Isolate(h.app);
		const second = new Isolate(h.app);
		const a = sseReader(await first.request(() => api.get(`/api/v1/sessions/${id}/events`)));
		const b = sseReader(await second.request(() => api.get(`/api/v1/sessions/${id}/events`)));
		cleanups.push(
			() => a.close(),
			() => b.close()
		);
		await sleep(300);
		// Each poll visits for both streams; the first visit starts the session's resume, under its stream's request.
		expect(first.held.length).toBeGreaterThan(2);
		await a.close();
		expect(h.app.feeds.streams(id)).toBe(1);
		const [firstHeld, secondHeld] = [first.held.length, second.held.length];
		await sleep(400);
		// The feed still polls for the open stream, whose visits its own request keeps alive.
		expect(second.held.length).toBeGreaterThan(secondHeld + 2);
		expect(first.held.length).toBe(firstHeld);
		await b.close();
		await first.settle();
		await second.settle();
	});
});

describe('a resume with nothing waiting', () => {
	it('costs one read of the session database and one of the control database, over the network', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const hrana = await startHranaServer({ dir: `${d.dir}/hrana`, autoCreate: true });
		cleanups.push(() => hrana.close());
		const scheduler = new RequestScheduler({ resumeEveryMs: 0 });
		const { host } = new URL(hrana.origin);
		const app = await createApp(
			parseConfig({
				KANTERA_DATA_DIR: d.dir,
				KANTERA_CONTROL_DB_URL: hrana.urlFor('control'),
				KANTERA_SESSION_DB_URL: `libsql://${host}/s-{id}/?tls=0`
			}),
			{ scheduler }
		);
		cleanups.push(() => app.close());
		const alice = await createUser(app, { name: 'alice', password: 'wonderland' });
		const { session } = await startSession(app, { ownerId: alice.id, title: 'Quiet' });
		// What waking the runners costs with nothing to do (their drains), measured in HTTP requests.
		app.runner.kick(session.id);
		app.images.kick(session.id);
		await Promise.all([app.runner.idle(), app.images.idle()]);
		hrana.stats.requests = 0;
		app.runner.kick(session.id);
		app.images.kick(session.id);
		await Promise.all([app.runner.idle(), app.images.idle()]);
		const drains = hrana.stats.requests;

		hrana.stats.requests = 0;
		const held: Promise<unknown>[] = [];
		inRequest(
			(p) => void held.push(p),
			() => scheduler.visit(session.id)
		);
		await Promise.all(held);
		await Promise.all([app.runner.idle(), app.images.idle()]);
		expect(scheduler.resumeCounts()).toEqual({ visits: 1, checks: 1, resumed: 0 });
		expect(hrana.stats.requests).toBe(2);
		expect(drains).toBeGreaterThan(2 * hrana.stats.requests);
	});
});

describe('an instance dropped mid-way', () => {
	it('is resumed by the next requests: its running turn ends interrupted once, a turn it accepted but never ran runs once', async () => {
		// The first call is the dropped instance's and never answers; every later one replies.
		const mock = await startMockLlm({ handler: (r) => (r.seq === 1 ? { fault: { kind: 'hang' } } : { text: 'The door opens.' }) });
		cleanups.push(() => mock.close());
		const h = await harness({ app: { mock, overrides: { scheduler: new RequestScheduler({ resumeEveryMs: 0 }) } } });
		const api = h.as(h.alice);
		const id = (await bodyOf(await new Isolate(h.app).request(() => api.post('/api/v1/sessions', { title: 'The door' })), Session)).id;

		// Another instance of the app (its own process, in request mode) takes a turn of this session and
		// is dropped with it: SIGKILL, as a host drops an instance, so nothing of it gets to clean up.
		const other = spawnTurnProcess({
			dataDir: h.app.config.dataDir,
			mock,
			userId: h.alice.id,
			sessionIds: [id],
			env: { KANTERA_SCHEDULER: 'request' }
		});
		cleanups.push(() => other.kill());
		const [dead] = v.parse(v.tuple([v.string()]), await other.running);
		await until(
			async () => mock.requests.length,
			(n) => n === 1
		);
		await other.kill();

		const count = async (queued = '') => {
			const events = await h.app.sessions.use(id, (s) => readEventsAfter(s.db, 0));
			const of = (type: string, turnId: string) =>
				events.filter((e) => e.event.type === type && 'turnId' in e.event && e.event.turnId === turnId).length;
			return {
				interrupted: of('turn.interrupted', dead),
				started: of('turn.started', queued),
				committed: of('turn.committed', queued),
				llmCalls: mock.requests.length
			};
		};
		/** Three requests for the session at once, each on an instance of its own; resolves when the host would let them go. */
		const visitAtOnce = async (streamUntil: (data: string) => boolean) => {
			const isolates = [new Isolate(h.app), new Isolate(h.app), new Isolate(h.app)] as const;
			const [streamRes, turnRes, sessionRes] = await Promise.all([
				isolates[0].request(() => api.get(`/api/v1/sessions/${id}/events?lastEventId=0`)),
				isolates[1].request(() => api.get(`/api/v1/sessions/${id}/turns/${dead}`)),
				isolates[2].request(() => api.get(`/api/v1/sessions/${id}`))
			]);
			expect(sessionRes.status).toBe(200);
			const stream = sseReader(streamRes);
			cleanups.push(() => stream.close());
			await stream.until((f) => f.data !== undefined && streamUntil(f.data));
			await stream.close();
			for (const isolate of isolates) await isolate.settle();
			return bodyOf(turnRes, Turn);
		};

		// The dead lease runs out. This process sets no timer for it and resumed nothing at start-up.
		const expiry = (await turnRow(h.app, id, dead))?.leaseExpiresAt ?? 0;
		await sleep(Math.max(0, expiry - Date.now()) + 500);
		expect((await turnRow(h.app, id, dead))?.status).toBe('running');

		expect((await visitAtOnce((data) => data.includes('"turn.interrupted"'))).status).toBe('interrupted');
		expect(await count()).toEqual({ interrupted: 1, started: 0, committed: 0, llmCalls: 1 });

		// An instance accepted the player's next turn and was dropped before its waitUntil work began.
		const queued = (
			await h.app.sessions.use(id, (s) =>
				acceptTurn(h.app, s, { userId: h.alice.id, text: 'I knock again.', idempotencyKey: 'after-the-drop-01' })
			)
		).turnId;
		await sleep(300);
		expect((await turnRow(h.app, id, queued))?.status).toBe('accepted');

		await visitAtOnce((data) => data.includes('"turn.committed"') && data.includes(queued));
		expect(await count(queued)).toEqual({ interrupted: 1, started: 1, committed: 1, llmCalls: 2 });
		expect((await turnRow(h.app, id, dead))?.status).toBe('interrupted');
		expect((await turnRow(h.app, id, queued))?.status).toBe('committed');

		// Later visits find nothing left to do.
		await visitAtOnce((data) => data.includes('"turn.committed"') && data.includes(queued));
		expect(await count(queued)).toEqual({ interrupted: 1, started: 1, committed: 1, llmCalls: 2 });
	}, 90_000);
});

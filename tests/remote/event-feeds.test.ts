/**
 * Open event streams over the network: however many streams watch a session, the process reads its
 * event log about once per poll interval and checks ownership on a slower cadence, counted as HTTP
 * requests by the Hrana test server (as `npm run bench:roundtrips` counts round trips), through the
 * real endpoint and the real @libsql/client. And each stream still keeps its own position: events in
 * order, resume with Last-Event-ID, the end of a deleted session, a 404 for anyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { startHranaServer, type HranaServer } from '../hrana';
import { tempDir } from '../helpers/env';
import { apiHarness, waitForTurn, type ApiHarness } from '../unit/api/client';
import { AcceptedTurn, bodyOf, ErrorBody, Session } from '../unit/api/shapes';
import { eventFrames, sseReader, type SseReader } from '../unit/api/sse-reader';
import { readEventsAfter } from '../../src/lib/server/events';

const POLL_MS = 250;
const ACCESS_CHECK_MS = 1_000;
const WINDOW_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let hrana: HranaServer;
let h: ApiHarness;
const d = tempDir();

beforeAll(async () => {
	// A server of this file's own, so that its request counts are this file's alone.
	hrana = await startHranaServer({ dir: `${d.dir}/hrana`, autoCreate: true });
	const { host } = new URL(hrana.origin);
	h = await apiHarness({
		env: { KANTERA_CONTROL_DB_URL: hrana.urlFor('control'), KANTERA_SESSION_DB_URL: `libsql://${host}/s-{id}/?tls=0` },
		app: { overrides: { eventFeeds: { pollMs: POLL_MS, accessCheckMs: ACCESS_CHECK_MS } } }
	});
});

afterAll(async () => {
	await h.cleanup();
	await hrana.close();
	d.remove();
});

async function newSession(title: string): Promise<{ id: string; lastEventId: number }> {
	const s = await bodyOf(await h.as(h.alice).post('/api/v1/sessions', { title }), Session);
	return { id: s.id, lastEventId: s.lastEventId };
}

async function openStreams(id: string, n: number, query = ''): Promise<SseReader[]> {
	const streams: SseReader[] = [];
	for (let i = 0; i < n; i++) {
		const stream = sseReader(await h.as(h.alice).get(`/api/v1/sessions/${id}/events${query}`));
		await stream.next();
		streams.push(stream);
	}
	return streams;
}

/** HTTP requests to the session's database and to the control database while `ms` pass. */
async function requestsDuring(id: string, ms: number): Promise<{ session: number; control: number; intervals: number }> {
	hrana.resetStats();
	const started = Date.now();
	await sleep(ms);
	const elapsed = Date.now() - started;
	return {
		session: hrana.stats.byDatabase.get(`s-${id}`) ?? 0,
		control: hrana.stats.byDatabase.get('control') ?? 0,
		intervals: elapsed / POLL_MS
	};
}

/** Reads what is left of a stream; true when it ended (the server closed it). */
async function ends(stream: SseReader): Promise<boolean> {
	for (let i = 0; i < 1_000; i++) if ((await stream.next()) === undefined) return true;
	return false;
}

describe('open event streams on a remote database', () => {
	it('cost about one log read per poll interval whatever their number, and none once the last one closes', async () => {
		const { id } = await newSession('Many tabs');
		for (const n of [1, 5, 20]) {
			const streams = await openStreams(id, n);
			expect(h.app.feeds.streams(id)).toBe(n);
			// Opening resumes the session's leftover work (a look at what waits): let it pass.
			await Promise.all([h.app.runner.idle(), h.app.images.idle()]);
			await sleep(POLL_MS);
			const quiet = await requestsDuring(id, WINDOW_MS);
			// A stream polling by itself made one log read and one ownership check per stream per interval.
			expect(quiet.session).toBeGreaterThanOrEqual(2);
			expect(quiet.session).toBeLessThanOrEqual(quiet.intervals + 2);
			expect(quiet.control).toBeLessThanOrEqual(WINDOW_MS / ACCESS_CHECK_MS + 1);
			for (const stream of streams) await stream.close();
			expect(h.app.feeds.active()).toBe(0);
			// A read that was under way when the last stream closed may still arrive.
			await sleep(POLL_MS);
			const closed = await requestsDuring(id, 4 * POLL_MS);
			expect(closed).toMatchObject({ session: 0, control: 0 });
		}
	});

	it('sends every stream the turn’s events in order, resumes one with Last-Event-ID, ends all when the session is deleted', async () => {
		const reply = 'The lamps of the harbour come on one by one, and the ferry sounds its horn twice.';
		h.mock?.script([{ text: reply, frameDelayMs: 25 }]);
		const api = h.as(h.alice);
		const { id, lastEventId: start } = await newSession('One story, many tabs');
		const foreign = await h.as(h.bob).get(`/api/v1/sessions/${id}/events`);
		expect(foreign.status).toBe(404);
		v.parse(ErrorBody, await foreign.json());

		const streams = await openStreams(id, 5, `?lastEventId=${start}`);
		const [leaving, ...staying] = streams;
		if (!leaving) throw new Error('no streams');
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Wait for the ferry.', idempotencyKey: 'feeds-remote-001' }),
			AcceptedTurn
		);
		const before = eventFrames(await leaving.until((f) => f.event === 'text.delta'));
		await leaving.close();
		const received = await Promise.all(staying.map(async (s) => eventFrames(await s.until((f) => f.event === 'turn.committed'))));
		await waitForTurn(api, id, turn.turnId);

		const logged = await h.app.sessions.use(id, (s) => readEventsAfter(s.db, start));
		expect(logged.map((e) => e.event.type)).toContain('text.delta');
		for (const got of received) {
			expect(got.map((e) => e.id)).toEqual(logged.map((e) => e.id));
			expect(got.map((e) => e.data)).toEqual(logged.map((e) => e.event));
		}
		// The tab that dropped out comes back with the Last-Event-ID it had: the rest, nothing twice.
		const lastSeen = before.at(-1)?.id ?? start;
		const back = sseReader(await api.get(`/api/v1/sessions/${id}/events`, { headers: { 'last-event-id': String(lastSeen) } }));
		expect((await back.next())?.id).toBe(String(lastSeen));
		const after = eventFrames(await back.until((f) => f.event === 'turn.committed'));
		expect([...before, ...after].map((e) => e.id)).toEqual(logged.map((e) => e.id));

		expect((await api.delete(`/api/v1/sessions/${id}`)).status).toBe(204);
		for (const stream of [...staying, back]) expect(await ends(stream)).toBe(true);
		expect(h.app.feeds.active()).toBe(0);
		expect((await api.get(`/api/v1/sessions/${id}/events`)).status).toBe(404);
	});
});

/** Turns through the API against the scripted mock LLM: play, idempotency, quota, conflict, cancel, records, secrets. */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller, type Method } from './client';
import { AcceptedTurn, bodyOf, Document, DocumentList, ErrorBody, Journal, MessagesPage, Session, State, Turn } from './shapes';
import { sseReader } from './sse-reader';
import { documents, memory, story } from '../../../src/lib/server/records';
import { loadPlayView } from '../../../src/lib/server/play';
import type { Vendor } from '../../helpers/turns';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

async function harness(opts: Parameters<typeof apiHarness>[0] = {}): Promise<ApiHarness> {
	h = await apiHarness(opts);
	return h;
}

async function newSession(api: Caller): Promise<string> {
	const res = await api.post('/api/v1/sessions', { title: 'The harbour' });
	expect(res.status).toBe(201);
	return (await bodyOf(res, Session)).id;
}

let keySeq = 0;
const key = () => `test-key-${String(++keySeq).padStart(6, '0')}`;

describe.each<Vendor>(['openai', 'anthropic'])('a turn through the API (%s)', (vendor) => {
	it('is accepted with 202, runs in the background, commits, and its reply is in the play log, state and journal', async () => {
		const { alice, as, mock } = await harness({ vendor });
		mock?.script([
			{
				toolCalls: [
					{ name: 'update_state', arguments: { patch: { location: 'Harbour', hp: 10 } } },
					{ name: 'journal_append', arguments: { entry: 'Day 1: the party reached the harbour.' } }
				]
			},
			{ text: 'The fog rolls in over the harbour.' }
		]);
		const api = as(alice);
		const id = await newSession(api);
		const res = await api.post(`/api/v1/sessions/${id}/turns`, { text: 'I walk to the harbour.', idempotencyKey: key() });
		expect(res.status).toBe(202);
		const accepted = await bodyOf(res, AcceptedTurn);
		expect(accepted.status).toBe('accepted');

		const done = v.parse(Turn, await waitForTurn(api, id, accepted.turnId));
		expect(done).toMatchObject({
			turnId: accepted.turnId,
			status: 'committed',
			input: 'I walk to the harbour.',
			reply: { text: 'The fog rolls in over the harbour.' }
		});
		expect(done.error).toBeUndefined();

		const page = await bodyOf(await api.get(`/api/v1/sessions/${id}/messages`), MessagesPage);
		expect(page.messages.map((m) => [m.role, m.body, m.turnId])).toEqual([
			['player', 'I walk to the harbour.', accepted.turnId],
			['gm', 'The fog rolls in over the harbour.', accepted.turnId]
		]);
		expect(page.nextBefore).toBeUndefined();
		expect(await bodyOf(await api.get(`/api/v1/sessions/${id}/state`), State)).toEqual({
			state: { location: 'Harbour', hp: 10 },
			version: 1
		});
		const journal = await bodyOf(await api.get(`/api/v1/sessions/${id}/journal`), Journal);
		expect(journal.entries.map((e) => e.body)).toEqual(['Day 1: the party reached the harbour.']);
	});
});

describe('POST …/turns', () => {
	it('answers the same idempotency key with the same turn (200) and sends one request to the LLM', async () => {
		const { app, alice, as, mock } = await harness();
		mock?.setHandler(() => ({ text: 'Once.' }));
		const api = as(alice);
		const id = await newSession(api);
		const k = key();
		const first = await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Knock.', idempotencyKey: k });
		const again = await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Knock.', idempotencyKey: k });
		expect(first.status).toBe(202);
		expect(again.status).toBe(200);
		const a = await bodyOf(first, AcceptedTurn);
		const b = await bodyOf(again, AcceptedTurn);
		expect(b.turnId).toBe(a.turnId);
		await waitForTurn(api, id, a.turnId);
		await app.runner.idle();
		const late = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Knock.', idempotencyKey: k }), AcceptedTurn);
		expect(late).toEqual({ turnId: a.turnId, status: 'committed' });
		await app.runner.idle();
		expect(mock?.requests).toHaveLength(1);
		const page = await bodyOf(await api.get(`/api/v1/sessions/${id}/messages`), MessagesPage);
		expect(page.messages).toHaveLength(2);
	});

	it('answers 429 with Retry-After and the reset time once the daily quota is spent', async () => {
		const { alice, as, mock } = await harness({ env: { KANTERA_FREE_TURNS_PER_DAY: '1' } });
		mock?.setHandler(() => ({ text: 'Fine.' }));
		const api = as(alice);
		const id = await newSession(api);
		const first = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text: 'One.', idempotencyKey: key() }), AcceptedTurn);
		await waitForTurn(api, id, first.turnId);
		const before = Date.now();
		const res = await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Two.', idempotencyKey: key() });
		expect(res.status).toBe(429);
		const err = await bodyOf(res, ErrorBody);
		expect(err.code).toBe('QUOTA_EXCEEDED');
		const resetsAt = Date.parse(err.resetsAt ?? '');
		const nextUtcMidnight = Date.UTC(new Date(before).getUTCFullYear(), new Date(before).getUTCMonth(), new Date(before).getUTCDate() + 1);
		expect(resetsAt).toBe(nextUtcMidnight);
		const after = Date.now();
		const retryAfter = Number(res.headers.get('retry-after'));
		// Whole seconds until the reset, as seen at some moment between sending and receiving.
		expect(Number.isInteger(retryAfter)).toBe(true);
		expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((resetsAt - after) / 1000)));
		expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil((resetsAt - before) / 1000)));
		// Another session of the same user shares the user's quota.
		const other = await newSession(api);
		expect((await api.post(`/api/v1/sessions/${other}/turns`, { text: 'Three.', idempotencyKey: key() })).status).toBe(429);
	});

	it('answers 409 while the previous turn is unfinished, and 400 for bad bodies', async () => {
		const { app, alice, as, mock } = await harness();
		mock?.script([{ text: 'Slowly, the door opens.', frameDelayMs: 30 }]);
		const api = as(alice);
		const id = await newSession(api);
		const first = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Open the door.', idempotencyKey: key() }),
			AcceptedTurn
		);
		const busy = await api.post(`/api/v1/sessions/${id}/turns`, { text: 'And again.', idempotencyKey: key() });
		expect(busy.status).toBe(409);
		expect(await bodyOf(busy, ErrorBody)).toMatchObject({ code: 'TURN_IN_PROGRESS' });

		const bad: [unknown, string][] = [
			['{"text": ', 'MALFORMED_JSON'],
			[{ text: 'No key.' }, 'INVALID_BODY'],
			[{ text: 7, idempotencyKey: key() }, 'INVALID_BODY'],
			[{ text: 'Short key.', idempotencyKey: 'k' }, 'INVALID_BODY'],
			[{ text: 'Extra.', idempotencyKey: key(), role: 'gm' }, 'INVALID_BODY'],
			[{ text: '   ', idempotencyKey: key() }, 'INVALID_INPUT'],
			[{ text: 'x'.repeat(app.config.engine.maxInputChars + 1), idempotencyKey: key() }, 'INVALID_INPUT']
		];
		for (const [body, code] of bad) {
			const res = await api.post(`/api/v1/sessions/${id}/turns`, body);
			expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
			expect((await bodyOf(res, ErrorBody)).code).toBe(code);
		}
		await waitForTurn(api, id, first.turnId);
		await app.runner.idle();
		expect(mock?.requests).toHaveLength(1);
	});
});

describe('cancel', () => {
	it('stops a running turn (202), which then writes nothing; a finished turn answers 409, an unknown one 404', async () => {
		const { app, alice, as, mock } = await harness();
		mock?.script([{ fault: { kind: 'endless', send: 'delta', intervalMs: 10 } }]);
		const api = as(alice);
		const id = await newSession(api);
		const events = sseReader(await api.get(`/api/v1/sessions/${id}/events`));
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Wait forever.', idempotencyKey: key() }),
			AcceptedTurn
		);
		// Cancel once the GM is visibly streaming.
		await events.until((f) => f.event === 'text.delta');
		const res = await api.post(`/api/v1/sessions/${id}/turns/${turn.turnId}/cancel`);
		expect(res.status).toBe(202);
		expect(await bodyOf(res, Turn)).toMatchObject({ turnId: turn.turnId, cancelRequested: true });
		await events.until((f) => f.event === 'turn.cancelled');
		await events.close();
		const done = v.parse(Turn, await waitForTurn(api, id, turn.turnId));
		expect(done.status).toBe('cancelled');
		expect(done.reply).toBeUndefined();
		await app.runner.idle();
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}/messages`), MessagesPage)).messages).toEqual([]);

		const again = await api.post(`/api/v1/sessions/${id}/turns/${turn.turnId}/cancel`);
		expect(again.status).toBe(409);
		expect(await bodyOf(again, ErrorBody)).toMatchObject({ code: 'TURN_FINISHED' });
		expect((await api.post(`/api/v1/sessions/${id}/turns/nosuchturn0000000000000000/cancel`)).status).toBe(404);
		expect((await api.get(`/api/v1/sessions/${id}/turns/nosuchturn0000000000000000`)).status).toBe(404);
	});
});

describe('the play log', () => {
	it('pages back with ?before= and catches up with ?after=', async () => {
		const { alice, as, mock } = await harness();
		let n = 0;
		mock?.setHandler(() => ({ text: `Reply ${++n}.` }));
		const api = as(alice);
		const id = await newSession(api);
		for (let i = 1; i <= 3; i++) {
			const t = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text: `Line ${i}.`, idempotencyKey: key() }), AcceptedTurn);
			await waitForTurn(api, id, t.turnId);
		}
		const last = await bodyOf(await api.get(`/api/v1/sessions/${id}/messages?limit=4`), MessagesPage);
		expect(last.messages.map((m) => m.body)).toEqual(['Line 2.', 'Reply 2.', 'Line 3.', 'Reply 3.']);
		expect(last.nextBefore).toBe(last.messages[0]?.id);
		const earlier = await bodyOf(await api.get(`/api/v1/sessions/${id}/messages?limit=4&before=${last.nextBefore}`), MessagesPage);
		expect(earlier.messages.map((m) => m.body)).toEqual(['Line 1.', 'Reply 1.']);
		expect(earlier.nextBefore).toBeUndefined();
		const after = await bodyOf(await api.get(`/api/v1/sessions/${id}/messages?after=${earlier.messages[1]?.id}&limit=2`), MessagesPage);
		expect(after.messages.map((m) => m.body)).toEqual(['Line 2.', 'Reply 2.']);
		for (const q of ['limit=0', 'limit=201', 'limit=abc', 'before=-1', 'after=1.5']) {
			const res = await api.get(`/api/v1/sessions/${id}/messages?${q}`);
			expect(res.status, q).toBe(400);
			expect((await bodyOf(res, ErrorBody)).code).toBe('INVALID_QUERY');
		}
	});
});

describe('secrets and ownership', () => {
	const SECRET = 'SECRET-lighthouse-keeper-is-the-smuggler';

	it('never lets a GM-only document, a memory note or the story DB out, and answers another user with 404 everywhere', async () => {
		const { app, alice, bob, as, mock, seenBodies } = await harness();
		mock?.setHandler(() => ({ text: 'The lighthouse blinks twice.' }));
		const api = as(alice);
		const id = await newSession(api);
		const { shared, hidden } = await app.sessions.use(id, (s) =>
			s.write(async (tx) => ({
				shared: await documents.create(tx, { title: 'World', body: '# Harbour\nFog and gulls.' }),
				hidden: await documents.create(tx, { title: `GM notes ${SECRET}`, body: `# Truth\n${SECRET}`, gmOnly: true }),
				truth: await story.addTruth(tx, { key: 'smuggler', body: SECRET }),
				note: await memory.create(tx, { name: 'Keeper', body: `The keeper: ${SECRET}` })
			}))
		);
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Who is the smuggler?', idempotencyKey: key() }),
			AcceptedTurn
		);
		await waitForTurn(api, id, turn.turnId);

		const list = await bodyOf(await api.get(`/api/v1/sessions/${id}/documents`), DocumentList);
		expect(list.documents.map((d) => d.id)).toEqual([shared.id]);
		expect(await bodyOf(await api.get(`/api/v1/sessions/${id}/documents/${shared.id}`), Document)).toMatchObject({
			title: 'World',
			body: '# Harbour\nFog and gulls.'
		});
		const hiddenRes = await api.get(`/api/v1/sessions/${id}/documents/${hidden.id}`);
		const unknownRes = await api.get(`/api/v1/sessions/${id}/documents/999999`);
		expect(hiddenRes.status).toBe(404);
		expect(await hiddenRes.json()).toEqual(await unknownRes.json());
		expect((await api.get(`/api/v1/sessions/${id}/documents/not-a-number`)).status).toBe(404);

		// The play log's read model too: its pages with their stage, the message pages, the stage's images.
		for (const path of [
			'',
			'/messages',
			'/backlog',
			'/backlog?after=0',
			'/images',
			'/state',
			'/journal',
			'/documents',
			`/turns/${turn.turnId}`
		])
			await api.get(`/api/v1/sessions/${id}${path}`);
		const stream = sseReader(await api.get(`/api/v1/sessions/${id}/events?lastEventId=0`));
		const frames = await stream.until((f) => f.event === 'turn.committed');
		await stream.close();
		// What the play page opens on comes from the same read model.
		const view = await app.sessions.use(id, (s) => loadPlayView(s.db, id, { id: 'viewer', language: 'en' }));
		const everything = (await Promise.all(seenBodies)).join('\n') + JSON.stringify(frames) + JSON.stringify(view);
		expect(everything).toContain('The lighthouse blinks twice.');
		expect(everything).not.toContain(SECRET);

		// Bob gets exactly what a missing session gets, on every route, and changes nothing.
		const bobApi = as(bob);
		const missing = await (await bobApi.get('/api/v1/sessions/0123456789abcdef0123456789')).json();
		const routes: [Method, string, unknown?][] = [
			['GET', ''],
			['PATCH', '', { title: 'Mine now' }],
			['DELETE', ''],
			['POST', '/turns', { text: 'Hijack.', idempotencyKey: key() }],
			['GET', `/turns/${turn.turnId}`],
			['POST', `/turns/${turn.turnId}/cancel`],
			['GET', '/messages'],
			['GET', '/backlog'],
			['GET', '/images'],
			['GET', '/state'],
			['GET', '/journal'],
			['GET', '/documents'],
			['GET', `/documents/${shared.id}`],
			['GET', '/events']
		];
		for (const [method, path, body] of routes) {
			const res = await bobApi.request(method, `/api/v1/sessions/${id}${path}`, body === undefined ? {} : { body });
			expect(res.status, `${method} ${path}`).toBe(404);
			expect(await res.json()).toEqual(missing);
		}
		expect(await bodyOf(await api.get(`/api/v1/sessions/${id}`), Session)).toMatchObject({ title: 'The harbour' });
		expect((await bodyOf(await api.get(`/api/v1/sessions/${id}/messages`), MessagesPage)).messages).toHaveLength(2);
		expect(app.bus.listenerCount(id)).toBe(0);
	});
});

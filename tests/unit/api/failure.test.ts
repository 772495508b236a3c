/**
 * A failed turn tells the player why in fixed words, by class, with an error id; the provider's own
 * message (which may quote the GM-only prompt back) goes only to the server log, bounded.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, Session, Turn } from './shapes';
import { eventFrames, sseReader } from './sse-reader';
import { documents } from '../../../src/lib/server/records';
import { loadPlayView } from '../../../src/lib/server/play';
import type { ScriptedReply } from '../../mock-llm';
import type { Vendor } from '../../helpers/turns';

let h: ApiHarness | undefined;
afterEach(async () => {
	vi.restoreAllMocks();
	await h?.cleanup();
	h = undefined;
});

const SECRET = 'SECRET-the-abbot-poisoned-the-well';
const MARKER = 'MARKER-provider-echo-91c2';

let keySeq = 0;
const key = () => `failure-key-${String(++keySeq).padStart(6, '0')}`;

async function sessionWithSecret(api: Caller, app: ApiHarness['app']): Promise<string> {
	const res = await api.post('/api/v1/sessions', { title: 'The abbey' });
	const id = (await bodyOf(res, Session)).id;
	// A GM-only document: its title is in the context the provider receives, never in player output.
	await app.sessions.use(id, (s) =>
		s.write((tx) => documents.create(tx, { title: `Abbey truths ${SECRET}`, body: `# Truth\n${SECRET}`, gmOnly: true }))
	);
	return id;
}

/** Everything a player can read about the session after the turn: API bodies, the event stream, the page data. */
async function playerVisible(h: ApiHarness, api: Caller, id: string, turnId: string): Promise<{ text: string; failed: unknown }> {
	for (const path of ['', `/turns/${turnId}`, '/messages']) await api.get(`/api/v1/sessions/${id}${path}`);
	const stream = sseReader(await api.get(`/api/v1/sessions/${id}/events?lastEventId=0`));
	const frames = await stream.until((f) => f.event === 'turn.failed');
	await stream.close();
	const page = await h.app.sessions.use(id, (s) => loadPlayView(s.db, id, { id: 'viewer', language: 'en' }));
	const failed = eventFrames(frames).find((e) => e.event === 'turn.failed')?.data;
	return { text: (await Promise.all(h.seenBodies)).join('\n') + JSON.stringify(frames) + JSON.stringify(page), failed };
}

describe.each<Vendor>(['openai', 'anthropic'])('a failed turn (%s)', (vendor) => {
	const cases: { name: string; reply: ScriptedReply; reason: string; retryable: boolean }[] = [
		{
			name: 'a refused request quoting the prompt',
			reply: { fault: { kind: 'status', status: 400, message: `${MARKER} bad prompt near "${SECRET}"`, echoRequest: true } },
			reason: 'refused',
			retryable: false
		},
		{
			name: 'rate limiting',
			reply: { fault: { kind: 'status', status: 429, message: `${MARKER} slow down: ${SECRET}` }, times: 3 },
			reason: 'rate_limited',
			retryable: true
		},
		{
			name: 'an outage',
			reply: { fault: { kind: 'status', status: 503, message: `${MARKER} overloaded while reading ${SECRET}` }, times: 3 },
			reason: 'provider_unavailable',
			retryable: true
		},
		{
			name: 'a rejected key',
			reply: { fault: { kind: 'status', status: 401, message: `${MARKER} bad key for ${SECRET}` } },
			reason: 'misconfigured',
			retryable: false
		}
	];

	it.each(cases)('after $name shows a fixed reason and an error id, never the provider’s words', async ({ reply, reason, retryable }) => {
		h = await apiHarness({ vendor });
		const { app, alice, as, mock } = h;
		const logged: string[] = [];
		for (const level of ['error', 'warn', 'log'] as const)
			vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
		const api = as(alice);
		const id = await sessionWithSecret(api, app);
		mock?.script([reply]);
		const accepted = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'I drink from the well.', idempotencyKey: key() }),
			AcceptedTurn
		);
		const turn = v.parse(Turn, await waitForTurn(api, id, accepted.turnId));
		expect(turn.status).toBe('failed');
		const { text: visible, failed } = await playerVisible(h, api, id, accepted.turnId);
		expect(visible).not.toContain(MARKER);
		expect(visible).not.toContain(SECRET);
		expect(visible).not.toContain('You are the game master');

		expect(turn.failure).toEqual({ reason, errorId: expect.stringMatching(/^[a-z2-7]{10}$/) });
		expect(turn.error).toContain(turn.failure?.errorId);
		expect(visible).toContain(turn.failure?.errorId);
		expect(failed).toEqual({ type: 'turn.failed', turnId: accepted.turnId, reason, errorId: turn.failure?.errorId, retryable });

		// The operator finds the provider's words in the log under the same id, bounded.
		const line = logged.find((l) => l.includes(turn.failure?.errorId ?? '-'));
		expect(line).toContain(MARKER);
		expect(line?.length).toBeLessThan(1_000);
	});
});

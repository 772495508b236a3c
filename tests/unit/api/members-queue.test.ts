/**
 * Play together in free turn order: lines sent while the GM writes wait, queued, and the next turn answers them
 * together, in the order they came, each tagged with its sender's character; a resend is the same line; the
 * sender may take a line back while it waits. Races: members posting at once during a GM turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { asc, eq } from 'drizzle-orm';
import { waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, MessagesPage, Turn } from './shapes';
import { key, quickUsers, seatBob, seatMore, tableHarness } from './table';
import { sessionSchema } from '../../../src/lib/server/db';
import type { AuthUser } from '../../../src/lib/server/auth';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

/** A GM whose first reply waits until `release()`; every reply says which request it answers. */
function heldGm(hh: ApiHarness) {
	let release = () => {};
	const held = new Promise<void>((r) => (release = r));
	let calls = 0;
	hh.mock?.setHandler(async () => {
		calls++;
		if (calls === 1) await held;
		return { text: `Reply ${calls}.` };
	});
	return { release };
}

async function untilRunning(api: Caller, id: string, turnId: string): Promise<void> {
	for (let i = 0; i < 1000; i++) {
		const turn = await bodyOf(await api.get(`/api/v1/sessions/${id}/turns/${turnId}`), Turn);
		if (turn.status === 'running') return;
		await new Promise((r) => setTimeout(r, 5));
	}
	throw new Error('the turn never started');
}

/** Alice's table of four (Bob as Mira, then guest0 and guest1), in free turn order, with the GM's first reply held. */
async function fullTable() {
	h = await tableHarness();
	const t = await seatBob(h);
	const [carol, dave] = await quickUsers(t.app, 2);
	if (!carol || !dave) throw new Error('users');
	await seatMore(t, t.id, [carol, dave]);
	return { ...t, carol, dave, gm: heldGm(t) };
}

const post = (api: Caller, id: string, text: string, idempotencyKey = key()) =>
	api.post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey });

describe('free turn order at a shared table', () => {
	it('queues the lines members send while the GM writes and answers them all once, together, in the order they came', async () => {
		const { app, as, alice, bob, carol, dave, id, gm, mock } = await fullTable();
		const first = await bodyOf(await post(as(alice), id, 'We reach the harbour.'), AcceptedTurn);
		await untilRunning(as(alice), id, first.turnId);

		// Twelve lines at once from four members, while the GM writes; then each sender resends one of theirs.
		const senders: AuthUser[] = [alice, bob, carol, dave];
		const lines = senders.flatMap((u) => [0, 1, 2].map((n) => ({ u, text: `${u.name} line ${n}`, key: key() })));
		const posted = await Promise.all(lines.map((l) => post(as(l.u), id, l.text, l.key)));
		expect(posted.map((r) => r.status)).toEqual(lines.map(() => 202));
		const ids = await Promise.all(posted.map(async (r) => (await bodyOf(r, AcceptedTurn)).turnId));
		expect(new Set(ids).size).toBe(lines.length);
		const resent = await Promise.all(senders.map((u) => post(as(u), id, 'again', lines.find((l) => l.u === u)?.key)));
		expect(resent.map((r) => r.status)).toEqual(senders.map(() => 200));
		// A queued line is visible to everyone as waiting.
		expect(await bodyOf(await as(dave).get(`/api/v1/sessions/${id}/turns/${ids[0] ?? ''}`), Turn)).toMatchObject({ status: 'accepted' });

		gm.release();
		const ended = await Promise.all(ids.map(async (turnId) => v.parse(Turn, await waitForTurn(as(alice), id, turnId))));
		await waitForTurn(as(alice), id, first.turnId);
		// One turn answers them all: the first line queued runs, the others are merged into it.
		const [answer, ...merged] = ended;
		expect(answer?.status).toBe('committed');
		expect(merged.map((t) => [t.status, t.mergedInto])).toEqual(merged.map(() => ['merged', answer?.turnId]));

		// In the order they were accepted (the turn.accepted events everyone saw), each tagged, each once.
		const accepted = await app.sessions.use(id, (s) =>
			s.db
				.select({ turnId: sessionSchema.events.turnId, data: sessionSchema.events.data })
				.from(sessionSchema.events)
				.where(eq(sessionSchema.events.type, 'turn.accepted'))
				.orderBy(asc(sessionSchema.events.id))
		);
		const order = accepted.map((e) => v.parse(v.object({ input: v.string() }), JSON.parse(e.data)).input).slice(1);
		expect(order).toHaveLength(lines.length);
		expect(answer?.input).toBe(order.join('\n'));
		const names: Record<string, string> = { alice: 'alice', bob: 'Mira', guest0: 'guest0', guest1: 'guest1' };
		expect([...order].sort()).toEqual(lines.map((l) => `${names[l.u.name] ?? ''}: ${l.text}`).sort());

		const log = await bodyOf(await as(bob).get(`/api/v1/sessions/${id}/messages`), MessagesPage);
		const said = log.messages.filter((m) => m.role === 'player').flatMap((m) => m.body.split('\n'));
		expect(said).toEqual(['alice: We reach the harbour.', ...order]);
		// The GM was asked twice: the opening line, then every queued line in one request.
		expect(mock?.requests).toHaveLength(2);
		expect(JSON.stringify(mock?.requests.at(-1)?.body)).toContain(JSON.stringify(order.join('\n')).slice(1, -1));
	});

	it('lets the sender take a queued line back before a turn takes it; another player may not, and a taken line is too late', async () => {
		const { as, alice, bob, carol, id, gm } = await fullTable();
		const first = await bodyOf(await post(as(alice), id, 'We reach the harbour.'), AcceptedTurn);
		await untilRunning(as(alice), id, first.turnId);
		const mine = await bodyOf(await post(as(bob), id, 'I wave.'), AcceptedTurn);
		const kept = await bodyOf(await post(as(carol), id, 'I wait.'), AcceptedTurn);
		const cancel = (u: AuthUser, turnId: string) => as(u).post(`/api/v1/sessions/${id}/turns/${turnId}/cancel`, {});

		const refused = await cancel(carol, mine.turnId);
		expect([refused.status, (await bodyOf(refused, ErrorBody)).code]).toEqual([403, 'OWNER_ONLY']);
		// Stopping the GM's turn stays the owner's.
		expect((await cancel(bob, first.turnId)).status).toBe(403);
		expect((await cancel(bob, mine.turnId)).status).toBe(202);
		expect(await bodyOf(await as(carol).get(`/api/v1/sessions/${id}/turns/${mine.turnId}`), Turn)).toMatchObject({ status: 'cancelled' });

		gm.release();
		const answered = v.parse(Turn, await waitForTurn(as(alice), id, kept.turnId));
		expect(answered).toMatchObject({ status: 'committed', input: 'guest0: I wait.' });
		expect((await cancel(carol, kept.turnId)).status).toBe(409);
	});

	it('never queues a whisper, and the lines queued while a whisper is answered get a turn of their own', async () => {
		const { as, alice, bob, carol, dave, id, gm } = await fullTable();
		const whisper = (u: AuthUser, text: string) =>
			as(u).post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey: key(), whisper: true });
		const secret = await bodyOf(await whisper(bob, 'I pocket the key.'), AcceptedTurn);
		await untilRunning(as(alice), id, secret.turnId);
		// A queued line is answered in public: a whisper sent while the GM writes is refused instead.
		const busy = await whisper(dave, 'I follow Mira.');
		expect([busy.status, (await bodyOf(busy, ErrorBody)).code]).toEqual([409, 'TURN_IN_PROGRESS']);
		const open = await bodyOf(await post(as(carol), id, 'I wait.'), AcceptedTurn);

		gm.release();
		const answered = v.parse(Turn, await waitForTurn(as(bob), id, secret.turnId));
		expect(answered).toMatchObject({ status: 'committed', input: 'Mira: I pocket the key.' });
		// Carol's line was not folded into the whisper (she would never read its answer): it has its own turn.
		expect(v.parse(Turn, await waitForTurn(as(carol), id, open.turnId))).toMatchObject({ status: 'committed', input: 'guest0: I wait.' });
	});

	it('still refuses a second line while the GM writes when nobody else sits at the table', async () => {
		h = await tableHarness();
		const { as, alice, id } = {
			...h,
			id: (await bodyOf(await h.as(h.alice).post('/api/v1/sessions', { title: 'Alone' }), v.object({ id: v.string() }))).id
		};
		const gm = heldGm(h);
		const first = await bodyOf(await post(as(alice), id, 'Hello.'), AcceptedTurn);
		await untilRunning(as(alice), id, first.turnId);
		const busy = await post(as(alice), id, 'Hello again.');
		expect([busy.status, (await bodyOf(busy, ErrorBody)).code]).toEqual([409, 'TURN_IN_PROGRESS']);
		gm.release();
		await waitForTurn(as(alice), id, first.turnId);
	});
});

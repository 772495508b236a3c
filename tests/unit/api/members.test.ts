/**
 * Play together through the API: invitations (hashed, expiring, revocable, used up), seats, who may do what
 * (the authorisation matrix for the owner, a member, a removed member and a stranger), the turn order and
 * its races, whose quota and whose budget a member's turn uses, the GM's table note, streams that end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { and, eq } from 'drizzle-orm';
import { waitForTurn, type ApiHarness, type Method } from './client';
import { AcceptedTurn, bodyOf, ErrorBody } from './shapes';
import { sseReader } from './sse-reader';
import { invite, key, newSession, quickUsers, seatBob, tableHarness } from './table';
import { controlSchema } from '../../../src/lib/server/db';
import { sha256Hex, type AuthUser } from '../../../src/lib/server/auth';
import { InvitationAcceptedSchema, MembersSchema } from '../../../src/lib/types/members';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

/** Alice's session with Bob seated as Mira. */
async function table(accessCheckMs?: number) {
	h = await tableHarness(accessCheckMs);
	return seatBob(h);
}

async function harness(): Promise<ApiHarness> {
	h = await tableHarness();
	return h;
}

const Error409 = v.object({ ...ErrorBody.entries, currentSeat: v.optional(v.number()) });

describe('invitations', () => {
	it('makes a link whose token is stored only as its digest; accepting seats the player once, with their character', async () => {
		const { app, as, alice, bob, id, link } = await table();
		expect(link.token).toMatch(/^ki_/);
		expect(link.url).toBe(`http://kantera.test/invite/${link.token}`);
		const rows = await app.control.db.select().from(controlSchema.sessionInvitations);
		expect(rows.map((r) => r.tokenHash)).toEqual([sha256Hex(link.token)]);
		expect(JSON.stringify(rows)).not.toContain(link.token);
		// A second click gives the same seat and uses nothing.
		const again = await as(bob).post(`/api/v1/invitations/${link.token}/accept`, {});
		expect(await bodyOf(again, InvitationAcceptedSchema)).toEqual({ sessionId: id, seat: 2 });
		expect((await app.control.db.select().from(controlSchema.sessionInvitations))[0]?.uses).toBe(1);
		// The owner opening their own link is at seat 1.
		expect(await bodyOf(await as(alice).post(`/api/v1/invitations/${link.token}/accept`, {}), InvitationAcceptedSchema)).toEqual({
			sessionId: id,
			seat: 1
		});

		const members = await bodyOf(await as(bob).get(`/api/v1/sessions/${id}/members`), MembersSchema);
		expect(members).toEqual({
			members: [
				{ userId: alice.id, name: 'alice', seat: 1, role: 'owner', character: null },
				{ userId: bob.id, name: 'bob', seat: 2, role: 'player', character: { name: 'Mira', look: 'a grey cloak' } }
			],
			turnMode: 'free',
			currentSeat: null,
			skipAfterSeconds: 300,
			skippableAt: null
		});
		const listed = v.parse(
			v.object({ sessions: v.array(v.object({ id: v.string(), role: v.string() })) }),
			await (await as(bob).get('/api/v1/sessions')).json()
		);
		expect(listed.sessions).toEqual([{ id, role: 'player' }]);
		expect(await bodyOf(await as(bob).get(`/api/v1/sessions/${id}`), v.object({ role: v.string() }))).toEqual({ role: 'player' });
	});

	it('answers 410 for an expired, revoked or used-up link, 409 when the seats are full, 404 for a token that is not one', async () => {
		const { app, as, alice, id } = await table();
		const [carol, dave, erin, frank] = await quickUsers(app, 4);
		if (!carol || !dave || !erin || !frank) throw new Error('users');
		const accept = (u: AuthUser, token: string) => as(u).post(`/api/v1/invitations/${token}/accept`, {});
		const codeOf = async (res: Response) => [res.status, (await bodyOf(res, ErrorBody)).code];

		const revoked = await invite(as(alice), id);
		expect((await as(alice).delete(`/api/v1/sessions/${id}/invitations/${revoked.id}`)).status).toBe(204);
		expect((await as(alice).delete(`/api/v1/sessions/${id}/invitations/${revoked.id}`)).status).toBe(404);
		expect(await codeOf(await accept(carol, revoked.token))).toEqual([410, 'INVITATION_GONE']);

		const expired = await invite(as(alice), id, { expiresInHours: 1 });
		await app.control.db
			.update(controlSchema.sessionInvitations)
			.set({ expiresAt: Date.now() - 1 })
			.where(eq(controlSchema.sessionInvitations.id, expired.id));
		expect(await codeOf(await accept(carol, expired.token))).toEqual([410, 'INVITATION_GONE']);

		const once = await invite(as(alice), id, { maxUses: 1 });
		expect((await accept(carol, once.token)).status).toBe(200);
		expect(await codeOf(await accept(dave, once.token))).toEqual([410, 'INVITATION_GONE']);

		const open = await invite(as(alice), id);
		expect((await accept(dave, open.token)).status).toBe(200);
		// Alice, Bob, Carol, Dave: four players in all.
		expect(await codeOf(await accept(erin, open.token))).toEqual([409, 'SESSION_FULL']);
		expect(await codeOf(await accept(erin, `ki_${'x'.repeat(43)}`))).toEqual([404, 'NOT_FOUND']);
		expect(await codeOf(await accept(erin, 'nonsense'))).toEqual([404, 'NOT_FOUND']);
		expect((await as(alice).post(`/api/v1/sessions/${id}/invitations`, { maxUses: 9 })).status).toBe(400);
	});

	it('seats exactly three of twenty people accepting at once on a four-seat session', async () => {
		const { app, as, alice } = await harness();
		const id = await newSession(as(alice));
		const link = await invite(as(alice), id, { maxUses: 3 });
		const crowd = await quickUsers(app, 20);
		const answers = await Promise.all(crowd.map((u) => as(u).post(`/api/v1/invitations/${link.token}/accept`, {})));
		expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
		const members = await bodyOf(await as(alice).get(`/api/v1/sessions/${id}/members`), MembersSchema);
		expect(members.members.map((m) => m.seat)).toEqual([1, 2, 3, 4]);
		expect((await app.control.db.select().from(controlSchema.sessionInvitations))[0]?.uses).toBe(3);
	});
});

/** Every session route, with what each caller should get: 'ok' (not an error), 403 or 404. */
const ROUTES: readonly { method: Method; path: string; body?: unknown; member: 'ok' | 403 | 404 }[] = [
	{ method: 'GET', path: '', member: 'ok' },
	{ method: 'GET', path: '/members', member: 'ok' },
	{ method: 'GET', path: '/backlog', member: 'ok' },
	{ method: 'GET', path: '/messages', member: 'ok' },
	{ method: 'GET', path: '/state', member: 'ok' },
	{ method: 'GET', path: '/journal', member: 'ok' },
	{ method: 'GET', path: '/journal/recent', member: 'ok' },
	{ method: 'GET', path: '/documents', member: 'ok' },
	{ method: 'GET', path: '/images', member: 'ok' },
	{ method: 'GET', path: '/spend', member: 'ok' },
	{ method: 'PATCH', path: '', body: { title: 'Mine now' }, member: 403 },
	{ method: 'PATCH', path: '', body: { turnMode: 'round' }, member: 403 },
	{ method: 'POST', path: '/invitations', body: {}, member: 403 },
	{ method: 'DELETE', path: '/invitations/whatever', member: 403 },
	{ method: 'GET', path: '/saves', member: 403 },
	{ method: 'POST', path: '/saves', body: { name: 'slot' }, member: 403 },
	{ method: 'POST', path: '/turns/someturn/undo', body: { idempotencyKey: 'undo-key-0001' }, member: 403 },
	{ method: 'POST', path: '/turns/someturn/reroll', body: { idempotencyKey: 'reroll-key-0001' }, member: 403 },
	// A member may cancel their own queued line (tests/unit/api/members-queue.test.ts): no such turn is a 404 to them.
	{ method: 'POST', path: '/turns/someturn/cancel', member: 404 },
	{ method: 'POST', path: '/images/regenerate', body: { target: 'scene', name: 'Harbour' }, member: 403 },
	{ method: 'PUT', path: '/documents/1', body: { body: 'Mine now.' }, member: 403 },
	{ method: 'DELETE', path: '', member: 403 }
];

describe('who may do what', () => {
	it('lets a member read and play, keeps the owner’s actions the owner’s (403), and answers a stranger and a removed member 404 everywhere', async () => {
		const { app, as, alice, bob, id } = await table();
		const [carol] = await quickUsers(app, 1);
		if (!carol) throw new Error('users');
		const missing = await (await as(carol).get('/api/v1/sessions/abcdefghijklmnopqrst/backlog')).json();
		const call = (u: AuthUser, r: Pick<(typeof ROUTES)[number], 'method' | 'path' | 'body'>) =>
			as(u).request(r.method, `/api/v1/sessions/${id}${r.path}`, r.body === undefined ? {} : { body: r.body });

		for (const r of ROUTES) {
			const res = await call(bob, r);
			if (r.member === 'ok') expect(res.status, `member ${r.method} ${r.path}`).toBeLessThan(300);
			else if (r.member === 404) expect(res.status, `member ${r.method} ${r.path}`).toBe(404);
			else {
				expect(res.status, `member ${r.method} ${r.path}`).toBe(403);
				expect((await bodyOf(res, ErrorBody)).code).toBe('OWNER_ONLY');
			}
		}
		const strangerChecks = async (u: AuthUser, who: string) => {
			for (const r of [...ROUTES, { method: 'POST' as const, path: '/turns', body: { text: 'Hi', idempotencyKey: key() } }]) {
				const res = await call(u, r);
				expect(res.status, `${who} ${r.method} ${r.path}`).toBe(404);
				expect(await res.json()).toEqual(missing);
			}
			expect((await as(u).get(`/api/v1/sessions/${id}/events`)).status).toBe(404);
			expect((await as(u).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(404);
		};
		await strangerChecks(carol, 'stranger');

		// A member cannot remove another; the owner can.
		expect((await as(bob).delete(`/api/v1/sessions/${id}/members/${alice.id}`)).status).toBe(403);
		expect((await as(alice).delete(`/api/v1/sessions/${id}/members/${alice.id}`)).status).toBe(409);
		expect((await as(alice).delete(`/api/v1/sessions/${id}/members/${bob.id}`)).status).toBe(204);
		await strangerChecks(bob, 'removed member');
		expect((await as(bob).get('/api/v1/sessions')).status).toBe(200);
		expect(v.parse(v.object({ sessions: v.array(v.unknown()) }), await (await as(bob).get('/api/v1/sessions')).json()).sessions).toEqual(
			[]
		);
		// The link still open does not let them back in.
		const link = await invite(as(alice), id);
		const back = await as(bob).post(`/api/v1/invitations/${link.token}/accept`, {});
		expect([back.status, (await bodyOf(back, ErrorBody)).code]).toEqual([403, 'REMOVED']);
		// The session itself is untouched, and its owner still has it.
		expect((await as(alice).get(`/api/v1/sessions/${id}`)).status).toBe(200);
	});

	it('lets a player leave (and join again); ends a removed member’s streams at once', async () => {
		const { app, as, alice, bob, id, link } = await table(600_000);
		const stream = sseReader(await as(bob).get(`/api/v1/sessions/${id}/events`));
		await stream.next();
		const own = sseReader(await as(alice).get(`/api/v1/sessions/${id}/events`));
		await own.next();
		expect(app.feeds.streams(id)).toBe(2);
		expect((await as(alice).delete(`/api/v1/sessions/${id}/members/${bob.id}`)).status).toBe(204);
		// Ended by the removal itself: the feed's own access check is ten minutes away (without the bus's signal this waits for it).
		await stream.until(() => false).catch(() => undefined);
		expect(await stream.next()).toBeUndefined();
		expect(app.feeds.streams(id)).toBe(1);
		await own.close();

		await app.control.db
			.delete(controlSchema.sessionMembers)
			.where(and(eq(controlSchema.sessionMembers.sessionId, id), eq(controlSchema.sessionMembers.userId, bob.id)));
		expect((await as(bob).post(`/api/v1/invitations/${link.token}/accept`, {})).status).toBe(200);
		expect((await as(bob).delete(`/api/v1/sessions/${id}/members/${bob.id}`)).status).toBe(204);
		expect((await as(bob).get(`/api/v1/sessions/${id}`)).status).toBe(404);
	});
});

describe('turns at a shared table', () => {
	it('tags a member’s line with their character, tells the GM the seats, counts the sender’s quota and bills the owner', async () => {
		const { app, as, alice, bob, id, mock } = await table();
		mock?.script([{ text: 'The lamp flares; Mira sees the stairs.' }]);
		const res = await as(bob).post(`/api/v1/sessions/${id}/turns`, { text: 'I light the lamp.', idempotencyKey: key() });
		expect(res.status).toBe(202);
		const turn = await bodyOf(res, AcceptedTurn);
		expect(await waitForTurn(as(bob), id, turn.turnId)).toMatchObject({ status: 'committed', input: 'Mira: I light the lamp.' });
		const system = JSON.stringify(mock?.requests.at(-1)?.body);
		expect(system).toContain('## At the table');
		expect(system).toContain('Seat 2 (a player): plays Mira; looks: a grey cloak');
		expect(system).toContain('Mira: I light the lamp.');

		const daily = await app.control.db.select().from(controlSchema.usageDaily);
		expect(daily.find((d) => d.userId === bob.id)?.turns).toBe(1);
		expect(daily.find((d) => d.userId === alice.id)?.turns ?? 0).toBe(0);
		const calls = await app.control.db.select().from(controlSchema.llmCalls);
		expect(calls.length).toBeGreaterThan(0);
		expect(new Set(calls.map((c) => c.userId))).toEqual(new Set([alice.id]));
	});

	it('lets only one of a seat’s line and the owner skipping it go through when both come at once (the round’s own guard)', async () => {
		const { as, alice, bob, id, mock } = await table();
		mock?.setHandler(() => ({ text: 'The GM answers.' }));
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { turnMode: 'round', skipAfterSeconds: 0 })).status).toBe(200);
		for (let round = 0; round < 5; round++) {
			expect((await as(alice).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(200);
			// The GM is idle: only the turn order can refuse one of them.
			const [line, skip] = await Promise.all([
				as(bob).post(`/api/v1/sessions/${id}/turns`, { text: 'Wait for me!', idempotencyKey: key() }),
				as(alice).post(`/api/v1/sessions/${id}/pass`, { seat: 2 })
			]);
			expect([line.status, skip.status].filter((s) => s < 300)).toHaveLength(1);
			const refused = line.status < 300 ? skip : line;
			expect([refused.status, (await bodyOf(refused, Error409)).code]).toEqual([409, 'NOT_YOUR_TURN']);
			if (line.status === 202) await waitForTurn(as(alice), id, (await bodyOf(line, AcceptedTurn)).turnId);
			expect((await bodyOf(await as(alice).get(`/api/v1/sessions/${id}/members`), MembersSchema)).currentSeat).toBe(1);
		}
	});

	it('in round mode gives the seat its turn back when the GM’s turn for its line fails', async () => {
		const { as, alice, bob, id, mock } = await table();
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { turnMode: 'round' })).status).toBe(200);
		expect((await as(alice).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(200);
		mock?.script([{ fault: { kind: 'status', status: 400, message: 'Bad request' } }]);
		const line = await bodyOf(await as(bob).post(`/api/v1/sessions/${id}/turns`, { text: 'I jump.', idempotencyKey: key() }), AcceptedTurn);
		expect(await waitForTurn(as(bob), id, line.turnId)).toMatchObject({ status: 'failed' });
		const members = await bodyOf(await as(bob).get(`/api/v1/sessions/${id}/members`), MembersSchema);
		expect(members.currentSeat).toBe(2);
		mock?.script([{ text: 'You land softly.' }]);
		const again = await as(bob).post(`/api/v1/sessions/${id}/turns`, { text: 'I jump again.', idempotencyKey: key() });
		expect(again.status).toBe(202);
		expect(await waitForTurn(as(bob), id, (await bodyOf(again, AcceptedTurn)).turnId)).toMatchObject({ status: 'committed' });
		expect((await bodyOf(await as(bob).get(`/api/v1/sessions/${id}/members`), MembersSchema)).currentSeat).toBe(1);
	});

	it('does not count the character tag toward the line’s length limit', async () => {
		const { app, as, bob, id } = await table();
		const longest = 'a'.repeat(app.config.engine.maxInputChars);
		const res = await as(bob).post(`/api/v1/sessions/${id}/turns`, { text: longest, idempotencyKey: key() });
		expect(res.status).toBe(202);
		expect(await waitForTurn(as(bob), id, (await bodyOf(res, AcceptedTurn)).turnId)).toMatchObject({ input: `Mira: ${longest}` });
		const over = await as(bob).post(`/api/v1/sessions/${id}/turns`, { text: `${longest}a`, idempotencyKey: key() });
		expect(over.status).toBe(400);
	});

	it('in round mode takes lines only from the seat whose turn it is, in order; passing and skipping move the turn on', async () => {
		const { as, alice, bob, id, mock } = await table();
		mock?.setHandler(() => ({ text: 'The GM answers.' }));
		const post = (u: AuthUser, text: string, idempotencyKey = key()) =>
			as(u).post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey });
		const members = async () => bodyOf(await as(bob).get(`/api/v1/sessions/${id}/members`), MembersSchema);
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { turnMode: 'round' })).status).toBe(200);
		expect(await members()).toMatchObject({ turnMode: 'round', currentSeat: 1 });

		const early = await post(bob, 'Me first!');
		expect(early.status).toBe(409);
		expect(await bodyOf(early, Error409)).toMatchObject({ code: 'NOT_YOUR_TURN', currentSeat: 1 });
		const aliceKey = key();
		const first = await bodyOf(await post(alice, 'I open the door.', aliceKey), AcceptedTurn);
		expect((await members()).currentSeat).toBe(2);
		// Alice's resend gets her turn back, not a refusal.
		const resent = await post(alice, 'I open the door.', aliceKey);
		expect(resent.status).toBe(200);
		expect((await bodyOf(resent, AcceptedTurn)).turnId).toBe(first.turnId);
		await waitForTurn(as(alice), id, first.turnId);

		const second = await post(bob, 'I follow.');
		expect(second.status).toBe(202);
		await waitForTurn(as(bob), id, (await bodyOf(second, AcceptedTurn)).turnId);
		expect((await members()).currentSeat).toBe(1);

		// Alice passes; Bob cannot skip Alice, but Alice (the owner) can skip Bob.
		expect((await as(bob).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(409);
		expect((await as(alice).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(200);
		expect((await members()).currentSeat).toBe(2);
		expect((await as(bob).post(`/api/v1/sessions/${id}/pass`, { seat: 1 })).status).toBe(403);
		// Bob has had the turn only a moment: five minutes by default before the owner may skip him.
		const seats = await members();
		expect(seats.skipAfterSeconds).toBe(300);
		const tooSoon = await as(alice).post(`/api/v1/sessions/${id}/pass`, { seat: 2 });
		expect([tooSoon.status, (await bodyOf(tooSoon, Error409)).code]).toEqual([409, 'TOO_EARLY_TO_SKIP']);
		expect(Date.parse(seats.skippableAt ?? '') - Date.now()).toBeGreaterThan(200_000);
		expect((await as(bob).patch(`/api/v1/sessions/${id}`, { skipAfterSeconds: 0 })).status).toBe(403);
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { skipAfterSeconds: 0 })).status).toBe(200);
		expect(await bodyOf(await as(alice).post(`/api/v1/sessions/${id}/pass`, { seat: 2 }), MembersSchema)).toMatchObject({ currentSeat: 1 });
		// Back in free order there is no turn to pass.
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { turnMode: 'free' })).status).toBe(200);
		expect((await as(alice).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(409);
	});

	it('of two members sending at once in round mode accepts exactly one', async () => {
		const { app, as, alice, bob, id, mock } = await table();
		mock?.setHandler(() => ({ text: 'The GM answers.' }));
		const [carol] = await quickUsers(app, 1);
		if (!carol) throw new Error('users');
		const link = await invite(as(alice), id);
		expect((await as(carol).post(`/api/v1/invitations/${link.token}/accept`, {})).status).toBe(200);
		expect((await as(alice).patch(`/api/v1/sessions/${id}`, { turnMode: 'round', skipAfterSeconds: 0 })).status).toBe(200);
		expect((await as(alice).post(`/api/v1/sessions/${id}/pass`, {})).status).toBe(200);
		for (let round = 0; round < 5; round++) {
			const answers = await Promise.all(
				[bob, carol].map((u) => as(u).post(`/api/v1/sessions/${id}/turns`, { text: 'Now!', idempotencyKey: key() }))
			);
			expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
			const won = answers.find((r) => r.status === 202);
			if (!won) throw new Error('none accepted');
			await waitForTurn(as(alice), id, (await bodyOf(won, AcceptedTurn)).turnId);
			// Back to seat 2 for the next try.
			const state = await bodyOf(await as(alice).get(`/api/v1/sessions/${id}/members`), MembersSchema);
			for (let skips = 0; state.currentSeat !== 2 && skips < 3; skips++) {
				const next = await bodyOf(await as(alice).post(`/api/v1/sessions/${id}/pass`, { seat: state.currentSeat }), MembersSchema);
				state.currentSeat = next.currentSeat;
			}
		}
	});
});

/**
 * Whispers (issue 25) through the API, as the GM-only records' leak tests go: Bob whispers a line with a marker, the
 * GM answers with markers (its text, a choice, a character it stages), and nothing another member can get — any
 * member route, the event stream live or resumed inside the turn, the play page's load, the owner's time travel and
 * saves — contains a marker. Bob and the GM see all of it; the others see that Mira whispered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, Session } from './shapes';
import { sseReader, type SseFrame } from './sse-reader';
import { controlSchema, newId } from '../../../src/lib/server/db';
import { loadPlayView } from '../../../src/lib/server/play';
import type { AuthUser } from '../../../src/lib/server/auth';
import { InvitationCreatedSchema } from '../../../src/lib/types/members';

const LINE = 'WHISPERLINE-4e1f I slip the key into my boot.';
const ANSWER = 'WHISPERANSWER-8c2d Nobody saw it.';
const CHOICE = 'WHISPERCHOICE-55aa keep it';
const CUED = 'Whispercue';
const MARKERS = ['WHISPERLINE-4e1f', 'WHISPERANSWER-8c2d', 'WHISPERCHOICE-55aa', CUED];

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

let keySeq = 0;
const key = () => `whisper-key-${String(++keySeq).padStart(6, '0')}`;

const expectNoMarker = (what: string, text: string) => {
	for (const marker of MARKERS) expect(text, `${what} shows ${marker}`).not.toContain(marker);
};

/** Alice's session with Bob seated as Mira and Carol as Tomas; Carol's and Alice's streams open before anything is said. */
async function table() {
	h = await apiHarness();
	const { app, as, alice, bob } = h;
	const carol: AuthUser = { id: newId(), name: 'carol', isAdmin: false, tier: 'free' };
	await app.control.db.insert(controlSchema.users).values({ ...carol, passwordHash: '', createdAt: Date.now() });
	const id = (await bodyOf(await as(alice).post('/api/v1/sessions', { title: 'The harbour' }), Session)).id;
	const link = await bodyOf(await as(alice).post(`/api/v1/sessions/${id}/invitations`, {}), InvitationCreatedSchema);
	for (const [user, name] of [
		[bob, 'Mira'],
		[carol, 'Tomas']
	] as const)
		expect((await as(user).post(`/api/v1/invitations/${link.token}/accept`, { character: { name } })).status).toBe(200);
	return { ...h, carol, id };
}

/** Bob whispers; the GM stages a character, offers a choice and answers. */
async function whisper(t: Awaited<ReturnType<typeof table>>) {
	t.mock?.script([
		{
			toolCalls: [
				{
					name: 'adv_stage',
					arguments: { cues: [{ paragraph: 0, action: 'enter', character: CUED, slot: 'left' }], choices: [CHOICE, 'Wait'] }
				}
			]
		},
		{ text: ANSWER }
	]);
	const res = await t.as(t.bob).post(`/api/v1/sessions/${t.id}/turns`, { text: LINE, idempotencyKey: key(), whisper: true });
	expect(res.status).toBe(202);
	const { turnId } = await bodyOf(res, AcceptedTurn);
	await waitForTurn(t.as(t.bob), t.id, turnId);
	return turnId;
}

/** Frames up to the turn's end, as one text. */
async function streamed(stream: ReturnType<typeof sseReader>, turnId: string): Promise<{ text: string; frames: SseFrame[] }> {
	const frames = await stream.until((f) => f.event === 'turn.committed' && (f.data ?? '').includes(turnId));
	return { text: frames.map((f) => `${f.event ?? ''} ${f.data ?? ''}`).join('\n'), frames };
}

/** Everything a member can GET about the session and the turn, as one text. */
async function everything(api: Caller, id: string, turnId: string): Promise<string> {
	const paths = [
		`/api/v1/sessions/${id}`,
		`/api/v1/sessions/${id}/members`,
		`/api/v1/sessions/${id}/turns/${turnId}`,
		`/api/v1/sessions/${id}/messages`,
		`/api/v1/sessions/${id}/backlog`,
		`/api/v1/sessions/${id}/backlog?after=0`,
		`/api/v1/sessions/${id}/state`,
		`/api/v1/sessions/${id}/journal`,
		`/api/v1/sessions/${id}/journal/recent`,
		`/api/v1/sessions/${id}/documents`,
		`/api/v1/sessions/${id}/images`,
		`/api/v1/sessions/${id}/spend`
	];
	const texts = await Promise.all(paths.map(async (p) => `${p}: ${await (await api.get(p)).text()}`));
	return texts.join('\n');
}

const WhisperedMessages = v.object({
	messages: v.array(v.object({ role: v.string(), body: v.string(), whisper: v.optional(v.object({ by: v.string(), as: v.string() })) }))
});

describe('whispers', () => {
	it('keep the line and the GM’s answer from every other member: API, play page, stream (live and resumed)', async () => {
		const t = await table();
		const { app, as, alice, bob, carol, id } = t;
		const carolStream = sseReader(await as(carol).get(`/api/v1/sessions/${id}/events?lastEventId=0`));
		const aliceStream = sseReader(await as(alice).get(`/api/v1/sessions/${id}/events?lastEventId=0`));
		const bobStream = sseReader(await as(bob).get(`/api/v1/sessions/${id}/events?lastEventId=0`));
		const turnId = await whisper(t);

		// The GM read the line, marked as Mira's private one.
		const request = JSON.stringify(t.mock?.requests.at(-1)?.body);
		expect(request).toContain('[Whisper from Mira, private');
		expect(request).toContain('WHISPERLINE-4e1f');

		for (const [who, user] of [
			['carol', carol],
			['alice (the owner)', alice]
		] as const) {
			expectNoMarker(`${who}'s API`, await everything(as(user), id, turnId));
			const view = await app.sessions.use(id, (s) => loadPlayView(s.db, id, { id: user.id, language: 'en' }));
			expectNoMarker(`${who}'s play page`, JSON.stringify(view));
		}
		const live = await streamed(carolStream, turnId);
		expectNoMarker("carol's stream", live.text);
		expectNoMarker("alice's stream", (await streamed(aliceStream, turnId)).text);
		// They know Mira whispered, and when the GM is done.
		const accepted = live.frames.find((f) => f.event === 'turn.accepted');
		expect(JSON.parse(accepted?.data ?? '{}')).toMatchObject({ input: 'Mira whispers to the GM', whisper: { by: bob.id, as: 'Mira' } });
		const page = await bodyOf(await as(carol).get(`/api/v1/sessions/${id}/messages`), WhisperedMessages);
		expect(page.messages.filter((m) => m.whisper)).toEqual([
			{ role: 'player', body: 'Mira whispers to the GM', whisper: { by: bob.id, as: 'Mira' } }
		]);
		// In the reader's language.
		const inJapanese = await app.sessions.use(id, (s) => loadPlayView(s.db, id, { id: carol.id, language: 'ja' }));
		expect(inJapanese.log.messages.find((m) => m.whisper)?.body).toBe('Mira が GM にささやいた');
		expect(page.messages.some((m) => m.role === 'gm' && m.body.includes('Nobody'))).toBe(false);

		// A stream resumed inside the whisper (after its turn.accepted) learns of it from the log.
		const insideId = accepted?.id ?? '';
		const resumed = sseReader(await as(carol).get(`/api/v1/sessions/${id}/events`, { headers: { 'last-event-id': insideId } }));
		expectNoMarker("carol's resumed stream", (await streamed(resumed, turnId)).text);

		// Bob sees it all, marked as his whisper.
		const own = (await streamed(bobStream, turnId)).text;
		for (const marker of ['WHISPERLINE-4e1f', 'WHISPERANSWER-8c2d', 'WHISPERCHOICE-55aa']) expect(own).toContain(marker);
		const bobPage = await bodyOf(await as(bob).get(`/api/v1/sessions/${id}/messages`), WhisperedMessages);
		expect(bobPage.messages.map((m) => [m.role, m.body.slice(0, 18), m.whisper?.as])).toEqual([
			['player', 'Mira: WHISPERLINE-', 'Mira'],
			['gm', 'WHISPERANSWER-8c2d', 'Mira']
		]);
		for (const s of [carolStream, aliceStream, bobStream, resumed]) await s.close();
	});

	it('stay in the GM’s context, marked private, for the turns after', async () => {
		const t = await table();
		await whisper(t);
		t.mock?.script([{ text: 'The tide turns.' }]);
		const next = await bodyOf(
			await t.as(t.carol).post(`/api/v1/sessions/${t.id}/turns`, { text: 'I look around.', idempotencyKey: key() }),
			AcceptedTurn
		);
		await waitForTurn(t.as(t.carol), t.id, next.turnId);
		const request = JSON.stringify(t.mock?.requests.at(-1)?.body);
		expect(request).toContain('[Whisper from Mira, private');
		expect(request).toContain('WHISPERANSWER-8c2d');
	});

	it('are not rerolled or swiped; the owner’s undo, its resend and a save tell nothing of them', async () => {
		const t = await table();
		const { as, alice, carol, id } = t;
		const turnId = await whisper(t);
		const base = `/api/v1/sessions/${id}/turns/${turnId}`;
		const listed = await as(alice).get(`${base}/alternatives`);
		expect(await listed.json()).toEqual({ items: [] });
		for (const res of [
			await as(alice).post(`${base}/alternatives`, { idempotencyKey: key() }),
			await as(alice).post(`${base}/reroll`, { idempotencyKey: key() })
		]) {
			expect(res.status).toBe(409);
			const body = await bodyOf(res, ErrorBody);
			expect(body.code).toBe('WHISPER_NOT_REROLLED');
			expectNoMarker('a time-travel answer', JSON.stringify(body));
		}
		const saved = await as(alice).post(`/api/v1/sessions/${id}/saves`, { name: 'Before the storm', at: `${turnId}:0` });
		expect(saved.status).toBe(201);
		expectNoMarker('a save', await saved.text());
		expectNoMarker('the saves', await (await as(alice).get(`/api/v1/sessions/${id}/saves`)).text());

		const carolStream = sseReader(await as(carol).get(`/api/v1/sessions/${id}/events`));
		const undoKey = key();
		const undone = await as(alice).post(`${base}/undo`, { idempotencyKey: undoKey });
		expect(undone.status).toBe(200);
		expectNoMarker('the undo', await undone.text());
		expectNoMarker('the undo resent', await (await as(alice).post(`${base}/undo`, { idempotencyKey: undoKey })).text());
		const frames = await carolStream.until((f) => f.event === 'turn.undone');
		expectNoMarker("carol's stream of the undo", frames.map((f) => f.data ?? '').join('\n'));
		await carolStream.close();
	});
});

describe('presence', () => {
	const Presence = v.object({ here: v.array(v.string()), typing: v.array(v.string()) });
	const presenceOf = (f: SseFrame) => v.parse(Presence, JSON.parse(f.data ?? '{}'));

	it('tells each stream who has the session open and who is typing, in frames without an id; strangers cannot ping', async () => {
		const t = await table();
		const { as, alice, bob, carol, id } = t;
		const carolStream = sseReader(await as(carol).get(`/api/v1/sessions/${id}/events`));
		const first = await carolStream.until((f) => f.event === 'presence');
		expect(presenceOf(first.at(-1) ?? { comments: [] })).toEqual({ here: [carol.id], typing: [] });

		const bobStream = sseReader(await as(bob).get(`/api/v1/sessions/${id}/events`));
		const joined = await carolStream.until((f) => f.event === 'presence');
		expect(presenceOf(joined.at(-1) ?? { comments: [] }).here.sort()).toEqual([bob.id, carol.id].sort());

		expect((await as(bob).post(`/api/v1/sessions/${id}/typing`, {})).status).toBe(204);
		const typing = (await carolStream.until((f) => f.event === 'presence')).at(-1) ?? { comments: [] };
		expect(typing.id).toBeUndefined();
		expect(presenceOf(typing).typing).toEqual([bob.id]);
		// The ping lapses by itself.
		const lapsed = (await carolStream.until((f) => f.event === 'presence')).at(-1) ?? { comments: [] };
		expect(presenceOf(lapsed).typing).toEqual([]);

		await bobStream.close();
		const left = (await carolStream.until((f) => f.event === 'presence')).at(-1) ?? { comments: [] };
		expect(presenceOf(left).here).toEqual([carol.id]);

		const stranger: AuthUser = { id: newId(), name: 'dave', isAdmin: false, tier: 'free' };
		await t.app.control.db.insert(controlSchema.users).values({ ...stranger, passwordHash: '', createdAt: Date.now() });
		expect((await as(stranger).post(`/api/v1/sessions/${id}/typing`, {})).status).toBe(404);
		expect((await as(alice).post(`/api/v1/sessions/${id}/typing`, {})).status).toBe(204);
		await carolStream.close();
	});
});

/** Undo, reroll, edit and save slots through the API: status codes, idempotency, 409s, 404 for another user, bad bodies. */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, MessagesPage, Session } from './shapes';
import { AlternativesSchema, RerolledSchema, UndoneSchema } from '../../../src/lib/types/api';
import { LoadedSaveSchema, SaveListSchema, SaveSchema } from '../../../src/lib/types/saves';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

let keySeq = 0;
const key = () => `tt-key-${String(++keySeq).padStart(6, '0')}`;

async function played(api: Caller, text: string): Promise<{ id: string; turnId: string }> {
	const res = await api.post('/api/v1/sessions', { title: 'The harbour' });
	const id = (await bodyOf(res, Session)).id;
	const turn = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text, idempotencyKey: key() }), AcceptedTurn);
	await waitForTurn(api, id, turn.turnId);
	return { id, turnId: turn.turnId };
}

const bodies = async (api: Caller, id: string) =>
	(await bodyOf(await api.get(`/api/v1/sessions/${id}/messages`), MessagesPage)).messages.map((m) => m.body);

describe('swipes through the API', () => {
	it('another reply: 202, the same key again 200 and nothing sent; the list, choosing back and forth, the state switched; 404 for another user', async () => {
		h = await apiHarness();
		const { alice, bob, as, mock, app } = h;
		mock?.script([
			{ toolCalls: [{ name: 'update_state', arguments: { patch: { location: 'Harbour' } } }] },
			{ text: 'Gulls cry.' },
			{ toolCalls: [{ name: 'update_state', arguments: { patch: { location: 'Lighthouse' } } }] },
			{ text: 'The lamp turns.' }
		]);
		const api = as(alice);
		const { id, turnId } = await played(api, 'I look around.');
		await app.runner.idle();
		const place = async () => JSON.stringify(await (await api.get(`/api/v1/sessions/${id}/state`)).json());
		expect(await place()).toContain('Harbour');
		const path = `/api/v1/sessions/${id}/turns/${turnId}/alternatives`;
		expect((await as(bob).post(path, { idempotencyKey: key() })).status).toBe(404);
		expect((await as(bob).get(path)).status).toBe(404);
		expect((await api.post(path, {})).status).toBe(400);

		const k = key();
		const res = await api.post(path, { idempotencyKey: k });
		expect(res.status).toBe(202);
		const made = await bodyOf(res, RerolledSchema);
		await waitForTurn(api, id, made.turnId);
		await app.runner.idle();
		const sent = mock?.requests.length;
		const again = await api.post(path, { idempotencyKey: k });
		expect(again.status).toBe(200);
		expect((await bodyOf(again, RerolledSchema)).turnId).toBe(made.turnId);
		await app.runner.idle();
		expect(mock?.requests.length).toBe(sent);
		expect(await place()).toContain('Lighthouse');
		expect(await bodies(api, id)).toEqual(['I look around.', 'The lamp turns.']);

		expect(await bodyOf(await api.get(path), AlternativesSchema)).toEqual({
			items: [
				{ id: turnId, text: 'Gulls cry.', current: false },
				{ id: made.turnId, text: 'The lamp turns.', current: true }
			]
		});
		expect((await as(bob).post(`${path}/${turnId}/choose`, {})).status).toBe(404);
		const chosen = await api.post(`${path}/${turnId}/choose`, {});
		expect(chosen.status).toBe(200);
		expect((await bodyOf(chosen, AlternativesSchema)).items.map((i) => i.current)).toEqual([true, false]);
		expect(await place()).toContain('Harbour');
		expect(await bodies(api, id)).toEqual(['I look around.', 'Gulls cry.']);
		const back = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/alternatives/${made.turnId}/choose`, {});
		expect(back.status).toBe(200);
		expect(await place()).toContain('Lighthouse');
		expect((await api.post(`${path}/nosuchturn/choose`, {})).status).toBe(404);
	});
});

describe('undo and reroll through the API', () => {
	it('undo answers 200 with what it took back, the same for a resend, 409 for a second undo; another user gets 404', async () => {
		h = await apiHarness();
		const { alice, bob, as, mock, app } = h;
		mock?.script([{ text: 'The fog rolls in.' }]);
		const api = as(alice);
		const { id, turnId } = await played(api, 'I walk to the harbour.');
		await app.runner.idle();

		const stranger = await as(bob).post(`/api/v1/sessions/${id}/turns/${turnId}/undo`, { idempotencyKey: key() });
		expect(stranger.status).toBe(404);
		for (const bad of [{}, { idempotencyKey: 'k' }, { idempotencyKey: key(), extra: 1 }]) {
			const res = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/undo`, bad);
			expect(res.status).toBe(400);
			expect((await bodyOf(res, ErrorBody)).code).toBe('INVALID_BODY');
		}
		expect(await bodies(api, id)).toEqual(['I walk to the harbour.', 'The fog rolls in.']);

		const k = key();
		const res = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/undo`, { idempotencyKey: k });
		expect(res.status).toBe(200);
		expect(await bodyOf(res, UndoneSchema)).toEqual({ turnId, input: 'I walk to the harbour.', undone: [turnId] });
		const again = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/undo`, { idempotencyKey: k });
		expect(again.status).toBe(200);
		expect(await bodyOf(again, UndoneSchema)).toEqual({ turnId, input: 'I walk to the harbour.', undone: [turnId] });
		const twice = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/undo`, { idempotencyKey: key() });
		expect(twice.status).toBe(409);
		expect((await bodyOf(twice, ErrorBody)).code).toBe('TURN_UNDONE');
		expect(await bodies(api, id)).toEqual([]);
		const unknown = await api.post(`/api/v1/sessions/${id}/turns/nosuchturn/undo`, { idempotencyKey: key() });
		expect(unknown.status).toBe(404);
	});

	it('reroll answers 202 with the new turn, which sends the same line once; 409 while a turn runs', async () => {
		h = await apiHarness();
		const { alice, as, mock, app } = h;
		mock?.script([{ text: 'A dull reply.' }, { text: 'A better reply.', frameDelayMs: 30 }]);
		const api = as(alice);
		const { id, turnId } = await played(api, 'Open the door.');
		await app.runner.idle();
		const before = mock?.requests.length ?? 0;
		const k = key();
		const res = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/reroll`, { idempotencyKey: k });
		expect(res.status).toBe(202);
		const rerolled = await bodyOf(res, RerolledSchema);
		expect(rerolled).toMatchObject({ status: 'accepted', undone: { turnId, undone: [turnId] } });
		// While the new turn runs, nothing can be undone or rerolled.
		const busy = await api.post(`/api/v1/sessions/${id}/turns/${rerolled.turnId}/undo`, { idempotencyKey: key() });
		expect(busy.status).toBe(409);
		expect((await bodyOf(busy, ErrorBody)).code).toBe('TURN_IN_PROGRESS');
		await waitForTurn(api, id, rerolled.turnId);
		await app.runner.idle();
		const resend = await api.post(`/api/v1/sessions/${id}/turns/${turnId}/reroll`, { idempotencyKey: k });
		expect(resend.status).toBe(200);
		expect(v.parse(RerolledSchema, await resend.json())).toEqual({ turnId: rerolled.turnId, status: 'committed' });
		await app.runner.idle();
		expect((mock?.requests.length ?? 0) - before).toBe(1);
		expect(await bodies(api, id)).toEqual(['Open the door.', 'A better reply.']);

		// An edit: the same, with a new line.
		mock?.script([{ text: 'You knock politely.' }]);
		const edit = await api.post(`/api/v1/sessions/${id}/turns/${rerolled.turnId}/reroll`, {
			idempotencyKey: key(),
			text: 'Knock on the door.'
		});
		expect(edit.status).toBe(202);
		await waitForTurn(api, id, (await bodyOf(edit, RerolledSchema)).turnId);
		expect(await bodies(api, id)).toEqual(['Knock on the door.', 'You knock politely.']);
		const bad = await api.post(`/api/v1/sessions/${id}/turns/${rerolled.turnId}/reroll`, { idempotencyKey: key(), text: 5 });
		expect(bad.status).toBe(400);
	});
});

describe('save slots through the API', () => {
	it('saves, lists, loads as a new session of the same owner, deletes; another user gets 404', async () => {
		h = await apiHarness();
		const { alice, bob, as, mock, app } = h;
		mock?.script([{ text: 'The fog rolls in.' }, { text: 'The ship sails.' }]);
		const api = as(alice);
		const { id } = await played(api, 'I walk to the harbour.');
		await app.runner.idle();
		const created = await api.post(`/api/v1/sessions/${id}/saves`, { name: 'Harbour' });
		expect(created.status).toBe(201);
		const save = await bodyOf(created, SaveSchema);
		expect(save).toMatchObject({ name: 'Harbour', quick: false, turnNumber: 1, lastLine: 'The fog rolls in.' });
		expect((await api.post(`/api/v1/sessions/${id}/saves`, { name: 7 })).status).toBe(400);
		expect((await api.post(`/api/v1/sessions/${id}/saves`, { quick: 'yes' })).status).toBe(400);
		expect((await as(bob).get(`/api/v1/sessions/${id}/saves`)).status).toBe(404);
		expect((await as(bob).post(`/api/v1/sessions/${id}/saves/${save.id}/load`)).status).toBe(404);

		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'I board the ship.', idempotencyKey: key() }),
			AcceptedTurn
		);
		await waitForTurn(api, id, turn.turnId);
		const list = await bodyOf(await api.get(`/api/v1/sessions/${id}/saves`), SaveListSchema);
		expect(list.saves.map((x) => x.id)).toEqual([save.id]);

		const loaded = await api.post(`/api/v1/sessions/${id}/saves/${save.id}/load`);
		expect(loaded.status).toBe(201);
		const branch = await bodyOf(loaded, LoadedSaveSchema);
		expect(branch.title).toBe('The harbour — Harbour');
		expect(await bodies(api, branch.sessionId)).toEqual(['I walk to the harbour.', 'The fog rolls in.']);
		expect(await bodies(api, id)).toEqual(['I walk to the harbour.', 'The fog rolls in.', 'I board the ship.', 'The ship sails.']);
		expect((await as(bob).get(`/api/v1/sessions/${branch.sessionId}/messages`)).status).toBe(404);

		expect((await api.delete(`/api/v1/sessions/${id}/saves/${save.id}`)).status).toBe(204);
		expect((await api.post(`/api/v1/sessions/${id}/saves/${save.id}/load`)).status).toBe(404);
	});

	it('a slot the player did not name is named in the session language, and so is the branch it loads into; the last line reads as on the stage', async () => {
		h = await apiHarness();
		const { alice, as, mock, app } = h;
		mock?.script([{ text: '霧が港に立ちこめる。\n\n@ブラム（怒り）：止まれ。' }]);
		const api = as(alice);
		const res = await api.post('/api/v1/sessions', { title: '港', language: 'ja' });
		const id = (await bodyOf(res, Session)).id;
		const turn = await bodyOf(await api.post(`/api/v1/sessions/${id}/turns`, { text: '港へ歩く。', idempotencyKey: key() }), AcceptedTurn);
		await waitForTurn(api, id, turn.turnId);
		await app.runner.idle();
		const quick = await bodyOf(await api.post(`/api/v1/sessions/${id}/saves`, { quick: true }), SaveSchema);
		expect(quick).toMatchObject({ name: 'クイックセーブ', quick: true, lastLine: 'ブラム：止まれ。' });
		const named = await bodyOf(await api.post(`/api/v1/sessions/${id}/saves`, {}), SaveSchema);
		expect(named).toMatchObject({ name: '1ターン目', quick: false });
		const branch = await bodyOf(await api.post(`/api/v1/sessions/${id}/saves/${quick.id}/load`), LoadedSaveSchema);
		expect(branch.title).toBe('港 — クイックセーブ');

		// An English session keeps the English names.
		mock?.script([{ text: 'The fog rolls in.' }]);
		const en = await played(api, 'I walk to the harbour.');
		await app.runner.idle();
		expect(await bodyOf(await api.post(`/api/v1/sessions/${en.id}/saves`, { quick: true }), SaveSchema)).toMatchObject({
			name: 'Quick save'
		});
		expect(await bodyOf(await api.post(`/api/v1/sessions/${en.id}/saves`, {}), SaveSchema)).toMatchObject({ name: 'Turn 1' });
	});
});

/**
 * What the API refuses on the play page, in the reader's language: the API answers with a code and the
 * details a sentence needs (its English message stays for API clients), and the page words the code.
 * Server answers come from the real route handlers; the wording is the panels' own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness } from '../api/client';
import { AcceptedTurn, bodyOf, Session } from '../api/shapes';
import { ApiErrorBodySchema } from '../../../src/lib/types/api';
import { apiRequestError, describeApiError, networkError } from '../../../src/lib/components/panels/api-errors';
import { describeBudgetWarning } from '../../../src/lib/components/stage/budget-warning';
import { describeTurnFormError } from '../../../src/lib/play/form-errors';
import { toErrorResponse } from '../../../src/lib/server/api/error-map';
import { TimeTravelError } from '../../../src/lib/server/timetravel';
import { BudgetExceededError } from '../../../src/lib/server/budget';
import { translator } from '../../../src/lib/i18n/all-languages';

const en = translator('en');
const ja = translator('ja');

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

/** The panels' reading of a server answer, worded in both languages. */
async function worded(res: Response): Promise<{ en: string; ja: string }> {
	const err = await apiRequestError(res);
	return { en: describeApiError(err, en, 'en'), ja: describeApiError(err, ja, 'ja') };
}

const mapped = (err: unknown): Response => {
	const res = toErrorResponse(err);
	if (!res) throw new Error('not an API error');
	return res;
};

describe('the save dialog refusing a name', () => {
	it('gets the field and its problem from the API, beside the English message', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/sessions', { title: 'The harbour' }), Session);
		const control = await api.post(`/api/v1/sessions/${id}/saves`, { name: 'Harbour\u0007', quick: false });
		expect(control.status).toBe(400);
		const body = v.parse(ApiErrorBodySchema, await control.clone().json());
		expect(body).toMatchObject({ code: 'INVALID_BODY', fields: [{ path: 'name', problem: 'controlCharacter' }] });
		expect(body.message).toMatch(/control character/);

		expect(await worded(control)).toEqual({
			en: 'The name contains a control character (such as NUL); only tabs and line breaks are allowed.',
			ja: '名前に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。'
		});
		const long = await api.post(`/api/v1/sessions/${id}/saves`, { name: 'x'.repeat(61), quick: false });
		expect(await worded(long)).toEqual({ en: 'The name is too long: at most 60 characters.', ja: '名前が長すぎます（60 文字まで）。' });
		const blank = await api.post(`/api/v1/sessions/${id}/saves`, { name: '   ', quick: false });
		expect(await worded(blank)).toEqual({ en: 'The name must not be empty.', ja: '名前を入力してください。' });
		const listed = await api.get(`/api/v1/sessions/${id}/saves`);
		expect(((await listed.json()) as { saves: unknown[] }).saves).toEqual([]);
	});

	it('says in words that every slot is taken, with the number', async () => {
		const res = mapped(new TimeTravelError('slots_full', 'All 20 save slots are taken; delete one first.'));
		expect(await worded(res)).toEqual({
			en: 'All 20 save slots are taken; delete one first.',
			ja: 'セーブ枠（20 個）がすべて埋まっています。先にどれかを削除してください。'
		});
	});
});

describe('time travel refusals', () => {
	it('an edit that is too long names the line and the limit, and takes nothing back', async () => {
		h = await apiHarness();
		const { alice, as, mock, app } = h;
		mock?.script([{ text: 'The fog rolls in.' }]);
		const api = as(alice);
		const { id } = await bodyOf(await api.post('/api/v1/sessions', { title: 'The harbour' }), Session);
		const turn = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Walk on.', idempotencyKey: 'api-errors-0001' }),
			AcceptedTurn
		);
		await waitForTurn(api, id, turn.turnId);
		await app.runner.idle();
		const max = app.config.engine.maxInputChars;
		const res = await api.post(`/api/v1/sessions/${id}/turns/${turn.turnId}/reroll`, {
			idempotencyKey: 'api-errors-0002',
			text: 'x'.repeat(max + 1)
		});
		expect(res.status).toBe(400);
		expect(v.parse(ApiErrorBodySchema, await res.clone().json())).toMatchObject({
			code: 'INVALID_INPUT',
			fields: [{ path: 'text', problem: 'tooLong', limit: max }]
		});
		expect(await worded(res)).toEqual({
			en: `Your line is too long: at most ${max} characters.`,
			ja: `台詞が長すぎます（${max} 文字まで）。`
		});
		const messages = (await (await api.get(`/api/v1/sessions/${id}/messages`)).json()) as { messages: unknown[] };
		expect(messages.messages).toHaveLength(2);
	});

	it('busy, not the last turn, already undone: each in its own words', async () => {
		const cases = [
			[
				new TimeTravelError('busy', 'The GM is still working on a turn.'),
				'ゲームマスターがターンを処理中です。終わるのを待つか停止してから、もう一度お試しください。'
			],
			[
				new TimeTravelError('not_last', 'Only the last turn can be undone.'),
				'取り消せるのは直前のターンだけです。後のターンから先に取り消してください。'
			],
			[new TimeTravelError('already_undone', 'This turn has already been undone.'), 'このターンはすでに取り消されています。'],
			[
				new TimeTravelError('not_found', 'No such save in this session.'),
				'もう見つかりません（削除されたのかもしれません）。ページを再読み込みしてください。'
			]
		] as const;
		for (const [err, words] of cases) expect((await worded(mapped(err))).ja).toBe(words);
		expect((await worded(mapped(cases[0][0]))).en).toBe(
			'The game master is still working on a turn. Wait for it to finish, or stop it, then try again.'
		);
	});
});

describe('spending limits', () => {
	it('a budget stop names its scope in the reader’s words', async () => {
		const res = mapped(new BudgetExceededError('session', 'micros', 60, 50));
		expect(await worded(res)).toEqual({
			en: 'The spending limit (this session) has been reached. Nothing was ordered or charged.',
			ja: '支出の上限（このセッション）に達しました。注文も課金もしていません。'
		});
	});

	it('a budget warning is worded from its amounts; an old one without them still reads in the language', () => {
		const warning = { type: 'budget.warning', scope: 'user_day', message: 'Budget warning (user_day): …', unit: 'micros' } as const;
		expect(describeBudgetWarning({ ...warning, spent: 450_000, warnAt: 400_000, limit: 1_000_000 }, ja)).toBe(
			'$0.450 使いました（あなたの今日）。警告の目安は $0.400、上限は $1.00 です。'
		);
		expect(describeBudgetWarning({ ...warning, unit: 'calls', scope: 'turn', spent: 9, warnAt: 8 }, en)).toBe(
			'9 calls spent (per turn); the warning is at 8 calls.'
		);
		expect(describeBudgetWarning({ type: 'budget.warning', scope: 'session', message: 'Budget warning (session): …' }, ja)).toBe(
			'支出（このセッション）が警告の目安を超えました。'
		);
	});
});

describe('anything else the server or the network answers', () => {
	it('reads in the reader’s language, never as the server’s English', async () => {
		const json = (status: number, body: unknown) =>
			new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
		expect((await worded(json(400, { code: 'SOMETHING_NEW', message: 'A new refusal.' }))).ja).toBe(
			'サーバーに断られました（SOMETHING_NEW）。'
		);
		expect((await worded(json(500, { code: 'INTERNAL', message: 'Something went wrong on our side (error 1a2b3c4d).' }))).ja).toBe(
			'サーバーで問題が起きました。もう一度お試しください。'
		);
		expect((await worded(new Response('<html>Bad gateway</html>', { status: 502 }))).en).toBe(
			'Something went wrong on the server. Please try again.'
		);
		expect(describeApiError(networkError(new TypeError('Failed to fetch')), ja)).toBe(
			'サーバーにつながりませんでした。接続を確かめて、もう一度お試しください。'
		);
		expect((await worded(json(401, { code: 'UNAUTHENTICATED', message: 'Sign in.' }))).ja).toBe(
			'サインアウトしています。サインインし直してから、もう一度お試しください。'
		);
	});

	it('a turn form that failed on the server says so without the server’s words', () => {
		expect(describeTurnFormError({ code: 'server' }, ja, 'ja')).toBe('サーバーで問題が起きました。もう一度お試しください。');
	});
});

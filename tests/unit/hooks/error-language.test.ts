/**
 * Every error a page shows reads in the reader's language: the server words its errors in English
 * with a stable code (and an unexpected failure's id apart), the error page words the code; the
 * body-size guard's plain error page is worded by the request's language before any page loads.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isHttpError, type RequestEvent } from '@sveltejs/kit';
import { handleBodySize, handleServerError } from '../../../src/lib/server/hooks';
import { errorPageHeading, errorPageMessage } from '../../../src/lib/i18n/error-page';

const LIMIT = 1024;

beforeAll(() => {
	process.env.KANTERA_MAX_BODY_BYTES = String(LIMIT);
});

afterEach(() => {
	vi.restoreAllMocks();
});

describe('the error page', () => {
	it.each([
		[404, { message: 'There is no preset at this address.', code: 'NOT_FOUND' }, '見つかりません', 'このアドレスには何もありません。'],
		[
			403,
			{ message: 'Only its author can change a preset.', code: 'FORBIDDEN' },
			'許可されていません',
			'この操作ができるのは持ち主だけです。'
		],
		[
			403,
			{ message: 'Official presets ship with Kantera and cannot be changed.', code: 'READ_ONLY' },
			'許可されていません',
			'公式プリセットは Kantera に付属しているため、変更できません。'
		],
		[
			413,
			{ message: 'The request body is larger than this server accepts.', code: 'BODY_TOO_LARGE' },
			'問題が起きました',
			'送られたデータが、このサーバーの受け付ける大きさを超えています。一度に送る量を減らしてください。'
		],
		[
			429,
			{ message: 'Too many publications.', code: 'RATE_LIMITED' },
			'問題が起きました',
			'いまは操作が多すぎます。少し待ってから、もう一度お試しください。'
		],
		[
			409,
			{ message: 'This preset is only a draft.', code: 'NOT_PLAYABLE' },
			'問題が起きました',
			'このプリセットはまだ下書きです。先に完全な世界として保存してください。'
		],
		[
			400,
			{ message: 'a report covers at most 366 days', code: 'BAD_RANGE' },
			'問題が起きました',
			'その期間は表示できません。日付は YYYY-MM-DD で、「開始」は「終了」より後にせず、もっと短い期間にしてください。'
		],
		[404, { message: 'No such sign-in provider on this server.' }, '見つかりません', 'このアドレスには何もありません。'],
		[
			400,
			{ message: 'Malformed URI', code: 'SOMETHING_NEW' },
			'問題が起きました',
			'この要求は読み取れませんでした。戻ってもう一度お試しください。'
		],
		[503, { message: 'Busy.' }, '問題が起きました', 'サーバー側で問題が起きました。もう一度お試しください。']
	])('%i %o: the server’s English for English readers, the code worded for Japanese ones', (status, error, heading, japanese) => {
		expect(errorPageMessage('en', status, error)).toBe(error.message);
		expect(errorPageMessage('ja', status, error)).toBe(japanese);
		expect(errorPageHeading('ja', status)).toBe(heading);
	});

	it('says an unexpected failure in the reader’s language around its error id', () => {
		vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const locals: App.Locals = { user: null };
		const event = {
			request: new Request('http://localhost/presets'),
			route: { id: '/presets' },
			url: new URL('http://localhost/presets'),
			locals
		};
		const body = handleServerError({ error: new Error('disk full'), event: event as RequestEvent, status: 500, message: 'Internal Error' });
		expect(body).toMatchObject({ code: 'INTERNAL', errorId: expect.stringMatching(/^[0-9a-f]{8}$/) });
		if (!body || !('errorId' in body) || typeof body.errorId !== 'string') throw new Error('no error id');
		expect(body.message).toBe(
			`Something went wrong on our side (error ${body.errorId}). Please try again; if it keeps happening, give the server's operator this error id.`
		);
		expect(errorPageMessage('en', 500, body)).toBe(body.message);
		expect(errorPageMessage('ja', 500, body)).toBe(
			`サーバー側で問題が起きました（エラー ${body.errorId}）。もう一度お試しください。何度も起きるときは、このエラー ID をサーバーの運営者に伝えてください。`
		);
	});

	it('has an English fallback for every page error without a message', () => {
		expect(errorPageMessage('en', 500, null)).toBe('Something went wrong on our side. Please try again.');
		expect(errorPageMessage('ja', 404, null)).toBe('このアドレスには何もありません。');
	});
});

describe('a page body over the size limit', () => {
	async function postPage(headers: Record<string, string>, cookie?: string): Promise<unknown> {
		const url = new URL('http://localhost/presets?/import');
		const request = new Request(url, { method: 'POST', body: 'x'.repeat(LIMIT + 1), headers });
		const cookies = { get: (name: string) => (name === 'kantera_lang' ? cookie : undefined) };
		const event = { request, url, cookies } as unknown as RequestEvent;
		try {
			await handleBodySize({ event, resolve: () => new Response('ok') });
		} catch (err) {
			return err;
		}
		throw new Error('the body was accepted');
	}

	it('is refused in the language of the cookie, else of the browser, English for the API', async () => {
		const ja = await postPage({ 'accept-language': 'en' }, 'ja');
		expect(isHttpError(ja, 413) && ja.body).toEqual({
			code: 'BODY_TOO_LARGE',
			message: `送られたデータが、このサーバーの受け付ける大きさ（${LIMIT} バイト）を超えています。一度に送る量を減らしてください。`
		});
		const browser = await postPage({ 'accept-language': 'ja-JP,ja;q=0.9' });
		expect(isHttpError(browser, 413) && browser.body.message).toMatch(/^送られたデータが/);
		const en = await postPage({ 'accept-language': 'en-US' });
		expect(isHttpError(en, 413) && en.body.message).toBe(
			`The request body is larger than this server accepts (${LIMIT} bytes). Send less data per request.`
		);
	});
});

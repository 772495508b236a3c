/**
 * Sign-up answers the reader in their language: the field errors (parsed in it) and the refusals
 * (taken name, closed sign-up, throttle, wrong password) through authErrorText. English stays the
 * default, which is what the CLI and the API show.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import {
	createUser,
	signUp,
	authErrorText,
	AuthError,
	AuthValidationError,
	InvalidCredentialsError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError,
	LocalAccountsDisabledError,
	listUsers,
	renameUser
} from '../../../src/lib/server/auth';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

async function refusal(p: Promise<unknown>): Promise<AuthError> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	if (!(err instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(err)}`);
	return err;
}

async function fields(p: Promise<unknown>): Promise<Readonly<Record<string, string>>> {
	const err = await refusal(p);
	if (!(err instanceof AuthValidationError)) throw new Error(`expected AuthValidationError, got ${String(err)}`);
	return err.fields;
}

describe('sign-up in the reader’s language', () => {
	it('gives the field errors in the language asked for, English by default', async () => {
		env = await testEnv();
		const ctx = { address: '198.51.100.7' };
		expect(await fields(signUp(env.app, { name: 'ab', password: 'short' }, ctx))).toEqual({
			name: 'A username needs at least 3 characters.',
			password: 'A password needs at least 8 characters.'
		});
		expect(await fields(signUp(env.app, { name: 'ab', password: 'short' }, { ...ctx, language: 'ja' }))).toEqual({
			name: 'ユーザー名は 3 文字以上にしてください。',
			password: 'パスワードは 8 文字以上にしてください。'
		});
		expect(await fields(signUp(env.app, { name: 'a b c', password: 'x'.repeat(257) }, { ...ctx, language: 'ja' }))).toEqual({
			name: 'ユーザー名に使えるのは英字・数字・「_」「-」「.」だけです。',
			password: 'パスワードは 256 文字までです。'
		});
		expect(await fields(signUp(env.app, { name: 'al\u0000ice', password: 42 }, { ...ctx, language: 'ja' }))).toEqual({
			name: 'ユーザー名に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。',
			password: 'パスワードを入力してください。'
		});
		// The CLI's path (createUser without a language) stays English.
		expect(await fields(createUser(env.app, { name: 'x'.repeat(33), password: 'wonderland' }, { viaOperator: true }))).toEqual({
			name: 'A username has at most 32 characters.'
		});
		expect(await listUsers(env.app)).toEqual([]);
	});

	it('gives the account page’s rename errors in the reader’s language', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		expect(await fields(renameUser(env.app, alice.id, 'a', 'ja'))).toEqual({ name: 'ユーザー名は 3 文字以上にしてください。' });
		expect(await fields(renameUser(env.app, alice.id, 'a'))).toEqual({ name: 'A username needs at least 3 characters.' });
	});

	it('words the refusals in the reader’s language, and the errors themselves stay English', async () => {
		env = await testEnv({ KANTERA_ALLOW_SIGNUP: 'false' });
		await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const ctx = { address: '198.51.100.7' };

		const taken = await refusal(createUser(env.app, { name: 'alice', password: 'wonderland' }, { viaOperator: true }));
		expect(taken).toBeInstanceOf(UsernameTakenError);
		expect(taken.message).toBe('The username "alice" is already taken.');
		expect(authErrorText(taken, 'en')).toBe(taken.message);
		expect(authErrorText(taken, 'ja')).toBe('ユーザー名「alice」はすでに使われています。');

		const closed = await refusal(signUp(env.app, { name: 'bob', password: 'wonderland' }, { ...ctx, language: 'ja' }));
		expect(closed).toBeInstanceOf(SignupDisabledError);
		expect(authErrorText(closed, 'en')).toBe(closed.message);
		expect(authErrorText(closed, 'ja')).toBe('このサーバーでは新規登録が閉じています。アカウントはサーバーの管理者に頼んでください。');

		const now = Date.now();
		const wait = (seconds: number) => new SignInThrottledError(new Date(now + seconds * 1000), now);
		expect(authErrorText(wait(40), 'en')).toBe(wait(40).message);
		expect(authErrorText(wait(40), 'ja')).toBe('失敗が続いたため、40 秒待ってからもう一度お試しください。');
		expect(authErrorText(wait(1), 'en')).toBe('Too many failed attempts. Wait 1 second before trying again.');
		expect(authErrorText(wait(150), 'en')).toBe(wait(150).message);
		expect(authErrorText(wait(150), 'ja')).toBe('失敗が続いたため、3 分待ってからもう一度お試しください。');

		expect(authErrorText(new InvalidCredentialsError(), 'en')).toBe('Wrong username or password.');
		expect(authErrorText(new InvalidCredentialsError(), 'ja')).toBe('ユーザー名かパスワードが違います。');
		expect(authErrorText(new LocalAccountsDisabledError(), 'en')).toBe(new LocalAccountsDisabledError().message);
		expect(authErrorText(new LocalAccountsDisabledError(), 'ja')).toContain('ユーザー名とパスワードでのサインインは使えません');
	});
});

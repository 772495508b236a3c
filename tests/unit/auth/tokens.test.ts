import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import {
	createUser,
	createToken,
	authenticateToken,
	listTokens,
	revokeToken,
	InvalidTokenError,
	TokenNotFoundError,
	AuthValidationError,
	expiryFromDays,
	TOKEN_NAME_MAX
} from '../../../src/lib/server/auth';
import { controlSchema } from '../../../src/lib/server/db';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

async function reason(p: Promise<unknown>): Promise<string> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	if (!(err instanceof InvalidTokenError)) throw new Error(`expected InvalidTokenError, got ${String(err)}`);
	return err.reason;
}

describe('personal API tokens', () => {
	it('returns the plaintext once, stores a hash, resolves the user and records use', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const created = await createToken(env.app, alice.id, 'laptop');
		expect(created.token).toMatch(/^kt_[A-Za-z0-9_-]{43}$/);
		const rows = await env.app.control.db.select().from(controlSchema.apiTokens);
		expect(rows).toHaveLength(1);
		expect(JSON.stringify(rows)).not.toContain(created.token.slice(3));
		expect(rows[0]?.lastUsedAt).toBeNull();

		expect(await authenticateToken(env.app, created.token)).toEqual(alice);
		const [listed] = await listTokens(env.app, alice.id);
		expect(listed?.name).toBe('laptop');
		expect(listed?.lastUsedAt).toBeInstanceOf(Date);
		expect(Object.keys(listed ?? {})).not.toContain('token');
	});

	it('tells malformed, unknown, expired and revoked tokens apart from valid ones', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const now = Date.now();
		const expiring = await createToken(env.app, alice.id, 'short-lived', { expiresAt: new Date(now + 60_000), now });
		expect(await authenticateToken(env.app, expiring.token, now + 30_000)).toEqual(alice);
		expect(await reason(authenticateToken(env.app, expiring.token, now + 60_000))).toBe('expired');

		expect(await reason(authenticateToken(env.app, 'hunter2'))).toBe('malformed');
		expect(await reason(authenticateToken(env.app, 'kt_' + 'A'.repeat(43)))).toBe('unknown');

		const revoked = await createToken(env.app, alice.id, 'revoke me');
		await revokeToken(env.app, alice.id, revoked.id);
		expect(await reason(authenticateToken(env.app, revoked.token))).toBe('unknown');
	});

	it('lets only the owner revoke a token and validates names and expiry', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const bob = await createUser(env.app, { name: 'bob', password: 'builder-bob' });
		const token = await createToken(env.app, alice.id, 'mine');
		await expect(revokeToken(env.app, bob.id, token.id)).rejects.toBeInstanceOf(TokenNotFoundError);
		expect(await authenticateToken(env.app, token.token)).toEqual(alice);
		await expect(createToken(env.app, alice.id, '  ')).rejects.toBeInstanceOf(AuthValidationError);
		await expect(createToken(env.app, alice.id, 'past', { expiresAt: new Date(Date.now() - 1000) })).rejects.toBeInstanceOf(
			AuthValidationError
		);
	});

	it('says what is wrong with a field in the language asked for, English by default', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const fields = async (p: Promise<unknown>) => {
			const err = await p.then(
				() => undefined,
				(e: unknown) => e
			);
			if (!(err instanceof AuthValidationError)) throw new Error(`expected AuthValidationError, got ${String(err)}`);
			return err.fields;
		};
		const tooLong = 'x'.repeat(TOKEN_NAME_MAX + 1);
		expect(await fields(createToken(env.app, alice.id, tooLong))).toEqual({
			name: `A token name has at most ${TOKEN_NAME_MAX} characters.`
		});
		expect(await fields(createToken(env.app, alice.id, tooLong, { language: 'ja' }))).toEqual({
			name: `トークンの名前は ${TOKEN_NAME_MAX} 文字までです。`
		});
		expect(await fields(createToken(env.app, alice.id, ' ', { language: 'ja' }))).toEqual({ name: 'トークンの名前を入力してください。' });
		expect(await fields(Promise.resolve().then(() => expiryFromDays('1.5', { language: 'ja' })))).toEqual({
			expiresDays: '有効期限は整数の日数で入力してください。'
		});
		expect(await fields(Promise.resolve().then(() => expiryFromDays('0')))).toEqual({ expiresDays: 'Expiry must be at least 1 day.' });
		expect(await listTokens(env.app, alice.id)).toEqual([]);
	});
});

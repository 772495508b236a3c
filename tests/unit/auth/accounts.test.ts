import { describe, it, expect, afterEach } from 'vitest';
import { eq } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import {
	createUser,
	verifyCredentials,
	signupOpen,
	InvalidCredentialsError,
	SignupDisabledError,
	UsernameTakenError,
	AuthValidationError,
	createCookieSession,
	validateCookieSession,
	deleteCookieSession
} from '../../../src/lib/server/auth';
import { controlSchema } from '../../../src/lib/server/db';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

describe('accounts', () => {
	it('signs up, makes only the first account admin, and signs in', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const bob = await createUser(env.app, { name: 'bob_2', password: 'builder-bob' });
		expect(alice.isAdmin).toBe(true);
		expect(bob.isAdmin).toBe(false);
		const signedIn = await verifyCredentials(env.app, { name: 'alice', password: 'wonderland' });
		expect(signedIn).toEqual(alice);
		// Names are matched without regard to case.
		expect((await verifyCredentials(env.app, { name: 'ALICE', password: 'wonderland' })).id).toBe(alice.id);
		const [row] = await env.app.control.db.select().from(controlSchema.users).where(eq(controlSchema.users.id, alice.id));
		expect(row?.passwordHash.startsWith('scrypt$')).toBe(true);
		expect(row?.passwordHash).not.toContain('wonderland');
	});

	it('gives the same error for a wrong password and an unknown user', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const wrong = await verifyCredentials(env.app, { name: 'alice', password: 'wonderlanD' }).catch((e: unknown) => e);
		const unknown = await verifyCredentials(env.app, { name: 'mallory', password: 'wonderland' }).catch((e: unknown) => e);
		const malformed = await verifyCredentials(env.app, { name: '../x', password: 'wonderland' }).catch((e: unknown) => e);
		for (const err of [wrong, unknown, malformed]) {
			expect(err).toBeInstanceOf(InvalidCredentialsError);
		}
		expect(wrong instanceof Error && unknown instanceof Error && wrong.message === unknown.message).toBe(true);
	});

	it('validates names and passwords with a message per field', async () => {
		env = await testEnv();
		const err = await createUser(env.app, { name: 'a b', password: 'short' }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(AuthValidationError);
		if (!(err instanceof AuthValidationError)) throw err;
		expect(Object.keys(err.fields).sort()).toEqual(['name', 'password']);
		await expect(createUser(env.app, { name: 'ab', password: 'long enough' })).rejects.toThrow(/at least 3/);
		await expect(createUser(env.app, { name: 'x'.repeat(33), password: 'long enough' })).rejects.toThrow(/at most 32/);
		await expect(createUser(env.app, { name: 'okname', password: 'p'.repeat(257) })).rejects.toThrow(/at most 256/);
		await expect(createUser(env.app, { name: 12, password: 'long enough' })).rejects.toBeInstanceOf(AuthValidationError);
	});

	it('refuses a taken name, whatever its case', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'Alice', password: 'wonderland' });
		await expect(createUser(env.app, { name: 'alice', password: 'other-pass' })).rejects.toBeInstanceOf(UsernameTakenError);
	});

	it('closes sign-up by config but still lets the very first account in', async () => {
		env = await testEnv({ KANTERA_ALLOW_SIGNUP: 'false' });
		expect(await signupOpen(env.app)).toBe(true);
		const admin = await createUser(env.app, { name: 'admin', password: 'first-account' });
		expect(admin.isAdmin).toBe(true);
		expect(await signupOpen(env.app)).toBe(false);
		await expect(createUser(env.app, { name: 'second', password: 'second-account' })).rejects.toBeInstanceOf(SignupDisabledError);
		// Operators (the CLI) can still create accounts.
		const byOperator = await createUser(env.app, { name: 'second', password: 'second-account' }, { viaOperator: true });
		expect(byOperator.isAdmin).toBe(false);
	});
});

describe('cookie sessions', () => {
	const DAY = 24 * 60 * 60 * 1000;

	it('stores only the SHA-256 of the token, slides the expiry, and expires', async () => {
		env = await testEnv({ KANTERA_AUTH_SESSION_DAYS: '10' });
		const user = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const t0 = Date.UTC(2030, 0, 1);
		const session = await createCookieSession(env.app, user.id, t0);
		expect(session.token.length).toBeGreaterThanOrEqual(43);
		expect(session.expiresAt.getTime()).toBe(t0 + 10 * DAY);
		const rows = await env.app.control.db.select().from(controlSchema.authSessions);
		expect(rows).toHaveLength(1);
		expect(rows[0]?.id).not.toBe(session.token);
		expect(rows[0]?.id).toMatch(/^[0-9a-f]{64}$/);

		// Early in its life: valid, not renewed.
		const early = await validateCookieSession(env.app, session.token, t0 + 1 * DAY);
		expect(early?.user.id).toBe(user.id);
		expect(early?.renewed).toBe(false);
		// Past half its life: renewed to a full lifetime from now.
		const late = await validateCookieSession(env.app, session.token, t0 + 8 * DAY);
		expect(late?.renewed).toBe(true);
		expect(late?.expiresAt.getTime()).toBe(t0 + 18 * DAY);
		// Still valid after the original expiry thanks to the renewal, gone after the new one.
		expect(await validateCookieSession(env.app, session.token, t0 + 12 * DAY)).not.toBeNull();
		expect(await validateCookieSession(env.app, session.token, t0 + 40 * DAY)).toBeNull();
		// The expired row was removed.
		expect(await env.app.control.db.select().from(controlSchema.authSessions)).toHaveLength(0);
	});

	it('rejects unknown tokens and forgets a signed-out session', async () => {
		env = await testEnv();
		const user = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const session = await createCookieSession(env.app, user.id);
		expect(await validateCookieSession(env.app, 'not-a-token')).toBeNull();
		expect(await validateCookieSession(env.app, session.token)).not.toBeNull();
		await deleteCookieSession(env.app, session.token);
		expect(await validateCookieSession(env.app, session.token)).toBeNull();
	});
});

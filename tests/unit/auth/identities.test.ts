/** Accounts through sign-in providers: creation with a proposed name, linking, the last-way-in rule, and ID token checks. */
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import {
	checkIdToken,
	createUser,
	LastWayInError,
	linkIdentity,
	listIdentities,
	nameFromHint,
	proposeName,
	signInWithProvider,
	SignInFlowError,
	SignupDisabledError,
	unlinkIdentity,
	verifyCredentials,
	LocalAccountsDisabledError,
	type ProviderProfile
} from '../../../src/lib/server/auth';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

const profile = (subject: string, hints: string[] = ['alice'], provider: ProviderProfile['provider'] = 'oidc'): ProviderProfile => ({
	provider,
	subject,
	label: `${subject}@example.test`,
	nameHints: hints
});

describe('account names from a profile', () => {
	it('makes a valid name of a hint, or none', () => {
		expect(nameFromHint('Zoë Wright')).toBe('Zoe_Wright');
		expect(nameFromHint('alice@example.test')).toBe('aliceexample.test');
		expect(nameFromHint('山田太郎')).toBeUndefined();
		expect(nameFromHint('ab')).toBeUndefined();
		expect(nameFromHint('x'.repeat(50))).toBe('x'.repeat(32));
	});

	it('proposes the first free hint, then a numbered one, then "player"', async () => {
		env = await testEnv();
		expect(await proposeName(env.app, ['山田', 'alice'])).toBe('alice');
		await createUser(env.app, { name: 'Alice', password: 'correct horse battery' }, { viaOperator: true });
		expect(await proposeName(env.app, ['alice'])).toBe('alice-2');
		expect(await proposeName(env.app, ['山田太郎'])).toBe('player');
	});
});

describe('signing in with a provider', () => {
	it('creates the account on the first sign-in (the first one is admin) and finds it on the second', async () => {
		env = await testEnv();
		const first = await signInWithProvider(env.app, profile('sub-1'));
		expect(first).toMatchObject({ created: true, user: { name: 'alice', isAdmin: true, tier: 'free' } });
		const again = await signInWithProvider(env.app, profile('sub-1', ['someone-else']));
		expect(again).toEqual({ created: false, user: first.user });
		const second = await signInWithProvider(env.app, profile('sub-2'));
		expect(second).toMatchObject({ created: true, user: { name: 'alice-2', isAdmin: false } });
		// An account made through a provider has no password to guess.
		await expect(verifyCredentials(env.app, { name: 'alice', password: '' })).rejects.toThrow();
	});

	it('creates no account when sign-up is closed (after the first)', async () => {
		env = await testEnv({ KANTERA_ALLOW_SIGNUP: 'false' });
		await signInWithProvider(env.app, profile('first'));
		await expect(signInWithProvider(env.app, profile('second'))).rejects.toBeInstanceOf(SignupDisabledError);
	});

	it('refuses password sign-in when local accounts are off', async () => {
		env = await testEnv({ KANTERA_LOCAL_ACCOUNTS: 'false', KANTERA_OIDC_ISSUER: 'https://id.example.test', KANTERA_OIDC_CLIENT_ID: 'k' });
		await expect(verifyCredentials(env.app, { name: 'alice', password: 'correct horse battery' })).rejects.toBeInstanceOf(
			LocalAccountsDisabledError
		);
	});
});

describe('linking and unlinking', () => {
	it('links a second provider, refuses one linked to someone else, and never removes the last way in', async () => {
		env = await testEnv();
		const { user } = await signInWithProvider(env.app, profile('sub-1'));
		await linkIdentity(env.app, user.id, profile('g-1', [], 'google'));
		expect((await listIdentities(env.app, user.id)).map((i) => i.provider)).toEqual(['oidc', 'google']);
		const other = await signInWithProvider(env.app, profile('sub-2'));
		await expect(linkIdentity(env.app, other.user.id, profile('g-1', [], 'google'))).rejects.toMatchObject({ problem: 'in_use' });
		await unlinkIdentity(env.app, user.id, 'google');
		await expect(unlinkIdentity(env.app, user.id, 'oidc')).rejects.toBeInstanceOf(LastWayInError);
		expect((await listIdentities(env.app, user.id)).map((i) => i.provider)).toEqual(['oidc']);
	});

	it('keeps control characters out: a label loses them, a subject with one is refused and creates nothing', async () => {
		env = await testEnv();
		const { user } = await signInWithProvider(env.app, { ...profile('sub-1'), label: 'Al\u0000ice\u001b[31m' });
		expect((await listIdentities(env.app, user.id)).map((i) => i.label)).toEqual(['Alice[31m']);
		await expect(signInWithProvider(env.app, profile('sub\u0000-2', ['bob']))).rejects.toMatchObject({ problem: 'provider' });
		await expect(linkIdentity(env.app, user.id, profile('g\u0007', [], 'google'))).rejects.toMatchObject({ problem: 'provider' });
		expect((await listIdentities(env.app, user.id)).map((i) => i.provider)).toEqual(['oidc']);
		expect(await proposeName(env.app, ['bob'])).toBe('bob');
	});

	it('counts a password as a way in while local accounts are on', async () => {
		env = await testEnv();
		const local = await createUser(env.app, { name: 'carol', password: 'correct horse battery' }, { viaOperator: true });
		await linkIdentity(env.app, local.id, profile('c-1'));
		await unlinkIdentity(env.app, local.id, 'oidc');
		expect(await listIdentities(env.app, local.id)).toEqual([]);
	});

	it('does not count the password when local accounts are off', async () => {
		env = await testEnv({ KANTERA_LOCAL_ACCOUNTS: 'false', KANTERA_OIDC_ISSUER: 'https://id.example.test', KANTERA_OIDC_CLIENT_ID: 'k' });
		const local = await createUser(env.app, { name: 'dave', password: 'correct horse battery' }, { viaOperator: true });
		await linkIdentity(env.app, local.id, profile('d-1'));
		await expect(unlinkIdentity(env.app, local.id, 'oidc')).rejects.toBeInstanceOf(LastWayInError);
	});
});

describe('ID token checks (the Google preset)', () => {
	const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
	const token = (claims: object) => `${encode({ alg: 'RS256' })}.${encode(claims)}.sig`;
	const good = {
		iss: 'https://accounts.google.com',
		aud: 'client-1',
		sub: '123',
		exp: Math.floor(Date.now() / 1000) + 300,
		nonce: 'n-1',
		email: 'a@example.test'
	};
	const expected = { issuer: 'https://accounts.google.com', clientId: 'client-1', nonce: 'n-1' };

	it('accepts a token for this client, issuer and attempt', () => {
		expect(checkIdToken(token(good), expected)).toMatchObject({ sub: '123' });
	});

	it.each([
		['another nonce', { nonce: 'n-2' }],
		['no nonce', { nonce: undefined }],
		['another issuer', { iss: 'https://evil.example' }],
		['another client', { aud: 'client-2' }],
		['an expired token', { exp: 1 }]
	])('refuses %s', (_what, change) => {
		expect(() => checkIdToken(token({ ...good, ...change }), expected)).toThrow(SignInFlowError);
	});
});

describe('the presets’ authorization requests', () => {
	const flow = { state: 'state-0123456789abcdef', codeVerifier: 'v'.repeat(43), nonce: 'nonce-0123456789abcdef' };

	it('Google: PKCE S256, state, nonce, OpenID scopes, to Google’s endpoint', async () => {
		const { SignInProviders } = await import('../../../src/lib/server/auth');
		const google = new SignInProviders({ google: { clientId: 'g-id', clientSecret: 'g-secret', issuer: undefined } }).get('google');
		const url = await google?.authorizationUrl(flow, 'https://kantera.example/auth/google/callback');
		expect(`${url?.origin ?? ''}${url?.pathname ?? ''}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
		expect(Object.fromEntries(url?.searchParams ?? [])).toMatchObject({
			response_type: 'code',
			client_id: 'g-id',
			redirect_uri: 'https://kantera.example/auth/google/callback',
			state: flow.state,
			nonce: flow.nonce,
			code_challenge_method: 'S256',
			scope: 'openid profile email'
		});
		expect(url?.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});

	it('GitHub: PKCE S256 and state, the public profile only', async () => {
		const { SignInProviders } = await import('../../../src/lib/server/auth');
		const github = new SignInProviders({ github: { clientId: 'gh-id', clientSecret: 'gh-secret' } }).get('github');
		const url = await github?.authorizationUrl(flow, 'https://kantera.example/auth/github/callback');
		expect(`${url?.origin ?? ''}${url?.pathname ?? ''}`).toBe('https://github.com/login/oauth/authorize');
		expect(Object.fromEntries(url?.searchParams ?? [])).toMatchObject({
			client_id: 'gh-id',
			state: flow.state,
			code_challenge_method: 'S256',
			scope: 'read:user'
		});
	});
});

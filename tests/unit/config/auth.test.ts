/** Sign-in and tier settings: half-configured providers and impossible combinations stop start-up with a message. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/lib/server/config';

const base = { KANTERA_DATA_DIR: '/tmp/kantera-auth-config' };

describe('sign-in provider settings', () => {
	it('configures nothing by default, with local accounts on', () => {
		expect(parseConfig(base).auth).toMatchObject({ localAccounts: true, providers: {} });
	});

	it('takes each provider by its client id and secret; the generic one also needs its issuer', () => {
		const cfg = parseConfig({
			...base,
			KANTERA_GOOGLE_CLIENT_ID: 'g',
			KANTERA_GOOGLE_CLIENT_SECRET: 'gs',
			KANTERA_GITHUB_CLIENT_ID: 'h',
			KANTERA_GITHUB_CLIENT_SECRET: 'hs',
			KANTERA_OIDC_ISSUER: 'https://sso.example.test/realms/r',
			KANTERA_OIDC_CLIENT_ID: 'o',
			KANTERA_OIDC_NAME: 'Company SSO'
		});
		expect(cfg.auth.providers).toEqual({
			google: { clientId: 'g', clientSecret: 'gs', issuer: undefined },
			github: { clientId: 'h', clientSecret: 'hs' },
			oidc: {
				clientId: 'o',
				clientSecret: undefined,
				issuer: 'https://sso.example.test/realms/r',
				name: 'Company SSO',
				scopes: ['openid', 'profile', 'email']
			}
		});
	});

	it.each([
		[{ KANTERA_GOOGLE_CLIENT_ID: 'g' }, /KANTERA_GOOGLE_CLIENT_SECRET: required/],
		[{ KANTERA_GITHUB_CLIENT_SECRET: 'hs' }, /KANTERA_GITHUB_CLIENT_ID: required/],
		[{ KANTERA_OIDC_CLIENT_ID: 'o' }, /KANTERA_OIDC_ISSUER: required/],
		[{ KANTERA_OIDC_ISSUER: 'https://sso.example.test' }, /KANTERA_OIDC_CLIENT_ID: required/],
		[{ KANTERA_OIDC_ISSUER: 'sso.example.test', KANTERA_OIDC_CLIENT_ID: 'o' }, /KANTERA_OIDC_ISSUER/],
		[{ KANTERA_LOCAL_ACCOUNTS: 'false' }, /KANTERA_LOCAL_ACCOUNTS: false needs a sign-in provider/]
	])('stops start-up on %j', (env, message) => {
		expect(() => parseConfig({ ...base, ...env })).toThrow(message);
	});
});

describe('the free model', () => {
	it('is the default model, a model on the default provider, or provider:model on a configured provider', () => {
		const llm = { OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'ak' };
		expect(parseConfig({ ...base, ...llm }).tiers.freeModel).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
		expect(parseConfig({ ...base, ...llm, KANTERA_FREE_MODEL: 'gpt-4.1-nano' }).tiers.freeModel).toEqual({
			provider: 'openai',
			model: 'gpt-4.1-nano'
		});
		expect(parseConfig({ ...base, ...llm, KANTERA_FREE_MODEL: 'anthropic:claude-haiku-4-5' }).tiers.freeModel).toEqual({
			provider: 'anthropic',
			model: 'claude-haiku-4-5'
		});
		expect(() => parseConfig({ ...base, ...llm, KANTERA_FREE_MODEL: 'google:gemini-2.5-flash' })).toThrow(
			/KANTERA_FREE_MODEL: the provider google is not configured/
		);
		// A model id with a colon that is not a provider stays a model id (e.g. Ollama's llama3:8b).
		expect(parseConfig({ ...base, ...llm, KANTERA_FREE_MODEL: 'llama3:8b' }).tiers.freeModel).toEqual({
			provider: 'openai',
			model: 'llama3:8b'
		});
	});
});

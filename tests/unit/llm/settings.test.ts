/** LLM settings: the config variables, createProvider's checks, and Retry-After on a real stream. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/lib/server/config';
import { createProvider, LlmConfigError, LlmError, providerSettingsFromConfig } from '../../../src/lib/server/llm';
import { startMockLlm, type MockLlm } from '../../mock-llm';
import { drain, failureOf, providerFor, request, TEST_KEY } from './helpers';

const base = { KANTERA_DATA_DIR: '/tmp/kantera-llm-settings' };

describe('LLM config', () => {
	it('says plainly that nothing is configured, and how to fix it', () => {
		const llm = parseConfig(base).llm;
		expect(llm.configured).toBe(false);
		if (!llm.configured) expect(llm.reason).toMatch(/No LLM provider is configured.*OPENAI_API_KEY.*ANTHROPIC_API_KEY/);
	});

	it('infers OpenAI from its key, with the default model', () => {
		expect(parseConfig({ ...base, OPENAI_API_KEY: 'sk-1' }).llm).toEqual({
			configured: true,
			provider: 'openai',
			model: 'gpt-4.1-mini',
			openai: { apiKey: 'sk-1', baseUrl: undefined },
			anthropic: { apiKey: undefined, baseUrl: undefined },
			google: { apiKey: undefined, baseUrl: undefined }
		});
	});

	it('infers Google from its key, with Gemini as the default model', () => {
		const llm = parseConfig({ ...base, GOOGLE_API_KEY: 'gk' }).llm;
		expect(llm.configured && [llm.provider, llm.model, llm.google.apiKey]).toEqual(['google', 'gemini-2.5-flash', 'gk']);
		expect(() => parseConfig({ ...base, GOOGLE_BASE_URL: 'http://gw.test/v1beta/openai' })).toThrow(
			/KANTERA_LLM_MODEL: required when GOOGLE_BASE_URL is set/
		);
	});

	it('infers Anthropic from its key', () => {
		const llm = parseConfig({ ...base, ANTHROPIC_API_KEY: 'ak', KANTERA_LLM_MODEL: 'claude-x' }).llm;
		expect(llm.configured && [llm.provider, llm.model]).toEqual(['anthropic', 'claude-x']);
	});

	it('lets KANTERA_LLM_PROVIDER pick between two configured providers', () => {
		const llm = parseConfig({ ...base, OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'ak', KANTERA_LLM_PROVIDER: 'anthropic' }).llm;
		expect(llm.configured && llm.provider).toBe('anthropic');
	});

	it('accepts a keyless OpenAI-compatible server but demands its model name', () => {
		expect(() => parseConfig({ ...base, OPENAI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(
			/KANTERA_LLM_MODEL: required when OPENAI_BASE_URL is set/
		);
		const llm = parseConfig({ ...base, OPENAI_BASE_URL: 'http://localhost:11434/v1', KANTERA_LLM_MODEL: 'llama3.1' }).llm;
		expect(llm.configured && [llm.provider, llm.model, llm.openai.baseUrl]).toEqual(['openai', 'llama3.1', 'http://localhost:11434/v1']);
	});

	it('is unconfigured, not broken, when the chosen provider has no key', () => {
		const llm = parseConfig({ ...base, KANTERA_LLM_PROVIDER: 'anthropic', OPENAI_API_KEY: 'sk' }).llm;
		expect(llm.configured).toBe(false);
		if (!llm.configured) expect(llm.reason).toMatch(/ANTHROPIC_API_KEY is not set/);
	});

	it('rejects an unknown provider and a malformed base URL at start-up', () => {
		expect(() => parseConfig({ ...base, KANTERA_LLM_PROVIDER: 'mistral' })).toThrow(ConfigError);
		expect(() => parseConfig({ ...base, KANTERA_LLM_PROVIDER: 'mistral' })).toThrow(
			/KANTERA_LLM_PROVIDER: must be openai, anthropic or google/
		);
		expect(() => parseConfig({ ...base, OPENAI_BASE_URL: 'localhost:11434' })).toThrow(/OPENAI_BASE_URL/);
		expect(() => parseConfig({ ...base, ANTHROPIC_BASE_URL: 'ftp://example.test' })).toThrow(/ANTHROPIC_BASE_URL/);
	});

	it('turns config into provider settings, with a per-session provider override', () => {
		const llm = parseConfig({ ...base, OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'http://gw.test' }).llm;
		expect(providerSettingsFromConfig(llm)).toEqual({ provider: 'openai', apiKey: 'sk', baseUrl: undefined });
		expect(providerSettingsFromConfig(llm, 'anthropic')).toEqual({ provider: 'anthropic', apiKey: 'ak', baseUrl: 'http://gw.test' });
		expect(() => providerSettingsFromConfig(parseConfig(base).llm)).toThrow(LlmConfigError);
	});
});

describe('createProvider', () => {
	it('needs a key for the vendors’ own endpoints, not for another server', () => {
		expect(() => createProvider({ provider: 'openai' })).toThrow(/OPENAI_API_KEY is not set/);
		expect(() => createProvider({ provider: 'anthropic', baseUrl: 'http://localhost:1' })).toThrow(/ANTHROPIC_API_KEY is not set/);
		expect(createProvider({ provider: 'openai', baseUrl: 'http://localhost:11434/v1' }).name).toBe('openai');
		expect(createProvider({ provider: 'anthropic', apiKey: 'ak' }).name).toBe('anthropic');
	});

	it('rejects unusable URLs and clocks', () => {
		expect(() => createProvider({ provider: 'openai', apiKey: 'k', baseUrl: 'not a url' })).toThrow(LlmConfigError);
		expect(() => createProvider({ provider: 'openai', apiKey: 'k', baseUrl: 'http://user:secret@host.test/v1' })).toThrow(
			/must not contain credentials/
		);
		expect(() => createProvider({ provider: 'openai', apiKey: 'k', timeouts: { idleMs: 0 } })).toThrow(/timeouts.idleMs/);
		expect(() => createProvider({ provider: 'anthropic', apiKey: 'k', retry: { maxRetries: 1.5 } })).toThrow(/maxRetries/);
	});
});

describe('Retry-After', () => {
	let mock: MockLlm;
	beforeEach(async () => {
		mock = await startMockLlm();
	});
	afterEach(async () => {
		await mock.close();
	});

	it('is honoured when short', async () => {
		mock.script([{ fault: { kind: 'status', status: 429, retryAfterSeconds: 0 } }, { text: 'ok' }]);
		const events = await drain(providerFor('openai', mock).stream(request()));
		expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
		expect(mock.requests).toHaveLength(2);
	});

	it('ends the call at once when the server asks for a longer pause than the policy allows', async () => {
		mock.script([{ fault: { kind: 'status', status: 429, retryAfterSeconds: 60 } }, { text: 'never served' }]);
		const error = await failureOf(
			providerFor('anthropic', mock, { retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1_000 } }).stream(request())
		);
		expect(error instanceof LlmError && [error.kind, error.retryAfterMs]).toEqual(['rate_limit', 60_000]);
		expect(mock.requests).toHaveLength(1);
	});

	it('never puts the key in an error message', async () => {
		mock.script([{ fault: { kind: 'status', status: 403, message: 'forbidden' } }]);
		const error = await failureOf(providerFor('openai', mock).stream(request()));
		expect(String(error)).not.toContain(TEST_KEY);
		expect(error instanceof LlmError && error.kind).toBe('auth');
	});
});

import { describe, it, expect } from 'vitest';
import { parseConfig, contextTokensFor, UNKNOWN_MODEL_CONTEXT_TOKENS } from '../../../src/lib/server/config';

const context = (value?: string) => parseConfig(value === undefined ? {} : { KANTERA_CONTEXT_TOKENS: value }).engine.context;

describe('KANTERA_CONTEXT_TOKENS', () => {
	it('knows the vendors’ models and gives any other the local servers’ usual 8k', () => {
		const c = context();
		expect(contextTokensFor(c, 'openai', 'gpt-4.1-mini')).toBe(1_047_576);
		expect(contextTokensFor(c, 'openai', 'gpt-4o-mini')).toBe(128_000);
		expect(contextTokensFor(c, 'anthropic', 'claude-sonnet-4-5')).toBe(200_000);
		expect(contextTokensFor(c, 'google', 'gemini-2.5-flash')).toBe(1_048_576);
		expect(contextTokensFor(c, 'openai', 'llama3.1:8b')).toBe(UNKNOWN_MODEL_CONTEXT_TOKENS);
	});

	it('a bare number covers every model no pair names, known ones too', () => {
		const c = context('4096');
		expect(contextTokensFor(c, 'openai', 'gpt-4.1-mini')).toBe(4096);
		expect(contextTokensFor(c, 'openai', 'qwen2.5:7b')).toBe(4096);
	});

	it('pairs name a model by prefix, for one provider or any; the provider pair wins, then the longest prefix', () => {
		const c = context(' 32768, llama3.1=8192 ,openai:llama3.1:70b=16384, anthropic:claude-=100000, qwen2.5:7b=4096, google:qwen=2048');
		expect(contextTokensFor(c, 'openai', 'llama3.1:8b')).toBe(8192);
		expect(contextTokensFor(c, 'openai', 'llama3.1:70b-instruct')).toBe(16384);
		// The colon of an Ollama tag is not a provider.
		expect(contextTokensFor(c, 'openai', 'qwen2.5:7b')).toBe(4096);
		// A provider's own pair wins over a longer pair for any provider.
		expect(contextTokensFor(c, 'google', 'qwen2.5:7b')).toBe(2048);
		expect(contextTokensFor(c, 'anthropic', 'claude-sonnet-4-5')).toBe(100_000);
		expect(contextTokensFor(c, 'openai', 'gpt-4.1')).toBe(32768);
	});

	it('refuses what it cannot read, naming the variable and the item', () => {
		expect(() => context('lots')).toThrow(/KANTERA_CONTEXT_TOKENS: "lots": must be a whole number of tokens/);
		expect(() => context('512')).toThrow(/KANTERA_CONTEXT_TOKENS: "512": must be at least 1024 tokens/);
		expect(() => context('8192,,llama=4096')).toThrow(/KANTERA_CONTEXT_TOKENS: has an empty item between commas/);
		expect(() => context('openai:=4096')).toThrow(/KANTERA_CONTEXT_TOKENS: "openai:=4096": name a model before "="/);
		expect(() => context('8192,16384')).toThrow(/KANTERA_CONTEXT_TOKENS: has more than one bare number/);
		expect(() => context('llama=8k')).toThrow(/KANTERA_CONTEXT_TOKENS: "llama=8k": must be a whole number/);
	});
});

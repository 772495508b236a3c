import { describe, it, expect, afterEach } from 'vitest';
import { startMockLlm, type MockLlm } from '../../mock-llm';
import { servedContextOf, SERVED_CONTEXT_TTL_MS } from '../../../src/lib/server/llm/server-context';
import { turnHarness, type TurnHarness } from '../../helpers/turns';

let mock: MockLlm | undefined;
let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
	await mock?.close();
	mock = undefined;
});

describe('asking a local server what context it serves a model with', () => {
	it('llama.cpp: each slot’s n_ctx from /props', async () => {
		mock = await startMockLlm();
		mock.serveAs({ kind: 'llama.cpp', nCtx: 4096, model: 'qwen2.5-7b' });
		expect(await servedContextOf({ baseUrl: mock.openaiBaseUrl })('qwen2.5-7b')).toBe(4096);
		expect(mock.localRequests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /props']);
	});

	it('Ollama: a loaded model’s context_length from /api/ps, else the Modelfile’s num_ctx from /api/show, else a warning once', async () => {
		mock = await startMockLlm();
		mock.serveAs({ kind: 'ollama', loaded: { name: 'llama3.1:8b', contextLength: 8192 } });
		expect(await servedContextOf({ baseUrl: mock.openaiBaseUrl })('llama3.1:8b')).toBe(8192);
		mock.serveAs({ kind: 'ollama', modelfileNumCtx: 6144 });
		expect(await servedContextOf({ baseUrl: mock.openaiBaseUrl })('llama3.1')).toBe(6144);
		expect(mock.localRequests.at(-1)).toEqual({ method: 'POST', path: '/api/show', body: { model: 'llama3.1' } });
		mock.serveAs({ kind: 'ollama' });
		const warnings: string[] = [];
		let clock = 0;
		const ask = servedContextOf({ baseUrl: mock.openaiBaseUrl, warn: (m) => warnings.push(m), now: () => clock });
		expect(await ask('llama3.1')).toBeUndefined();
		clock += SERVED_CONTEXT_TTL_MS;
		expect(await ask('llama3.1')).toBeUndefined();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/PARAMETER num_ctx in a Modelfile or OLLAMA_CONTEXT_LENGTH/);
	});

	it('vLLM: max_model_len from /v1/models; asked again only after a minute', async () => {
		mock = await startMockLlm();
		mock.serveAs({ kind: 'vllm', model: 'mistral-7b', maxModelLen: 16384 });
		let clock = 0;
		const ask = servedContextOf({ baseUrl: mock.openaiBaseUrl, now: () => clock });
		expect(await ask('mistral-7b')).toBe(16384);
		const asked = mock.localRequests.length;
		expect(await ask('mistral-7b')).toBe(16384);
		expect(mock.localRequests).toHaveLength(asked);
		mock.serveAs({ kind: 'vllm', model: 'mistral-7b', maxModelLen: 8192 });
		clock += SERVED_CONTEXT_TTL_MS;
		expect(await ask('mistral-7b')).toBe(8192);
	});

	it('a server that says nothing, or nonsense, leaves the configured context alone', async () => {
		mock = await startMockLlm();
		expect(await servedContextOf({ baseUrl: mock.openaiBaseUrl })('any')).toBeUndefined();
		const nonsense = servedContextOf({
			baseUrl: 'http://127.0.0.1:1/v1',
			fetch: () => Promise.resolve(new Response(JSON.stringify({ default_generation_settings: { n_ctx: 'lots' } })))
		});
		expect(await nonsense('any')).toBeUndefined();
	});

	it('a turn on a llama.cpp server of 4096 is planned for 4096, whatever KANTERA_CONTEXT_TOKENS says', async () => {
		h = await turnHarness('openai', { KANTERA_CONTEXT_TOKENS: '32768', KANTERA_LLM_MODEL: 'qwen2.5-7b' });
		h.mock.serveAs({ kind: 'llama.cpp', nCtx: 4096, model: 'qwen2.5-7b' });
		h.mock.script([{ text: 'The gate creaks open.' }]);
		expect((await h.play('I push the gate')).status).toBe('committed');
		// A quarter of the served context for the reply, not of the configured one.
		expect(h.mock.requests[0]?.openai?.max_tokens).toBe(1024);
		expect(h.mock.localRequests.some((r) => r.path === '/props')).toBe(true);
	});
});

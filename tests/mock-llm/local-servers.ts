/**
 * The routes by which local OpenAI-compatible servers say what context they serve a model with, in their own
 * wire formats, so the app's probe (src/lib/server/llm/server-context.ts) runs against what those servers send:
 * llama.cpp's `GET /props`, Ollama's `GET /api/ps` and `POST /api/show`, vLLM's `GET /v1/models`.
 */

export type LocalServer =
	/** llama-server: `nCtx` is each slot's context (`-c` divided between `--parallel` slots). */
	| { kind: 'llama.cpp'; nCtx: number; model?: string }
	/**
	 * Ollama: `loaded` is what `/api/ps` lists (a model loaded with its context length); `modelfileNumCtx` is
	 * the `PARAMETER num_ctx` of the model's Modelfile, shown by `/api/show`.
	 */
	| { kind: 'ollama'; loaded?: { name: string; contextLength: number }; modelfileNumCtx?: number }
	| { kind: 'vllm'; model: string; maxModelLen: number };

export interface LocalRequest {
	method: string;
	path: string;
	body: unknown;
}

type Answer = { status: number; body: unknown } | undefined;

/** The answer of `server` to a request it has a route for; undefined for any other (the mock's 404). */
export function answerLocalServer(server: LocalServer | undefined, method: string, path: string, body: unknown): Answer {
	if (!server) return undefined;
	if (server.kind === 'llama.cpp') {
		if (method === 'GET' && path === '/props')
			return {
				status: 200,
				body: {
					default_generation_settings: {
						id: 0,
						id_task: -1,
						n_ctx: server.nCtx,
						speculative: false,
						is_processing: false,
						params: { n_predict: -1 }
					},
					total_slots: 1,
					model_path: `/models/${server.model ?? 'model'}.gguf`,
					chat_template: '',
					build_info: 'b0-mock'
				}
			};
		if (method === 'GET' && path === '/v1/models')
			return {
				status: 200,
				body: {
					object: 'list',
					data: [{ id: server.model ?? 'model', object: 'model', owned_by: 'llamacpp', meta: { n_ctx_train: 131072 } }]
				}
			};
		return undefined;
	}
	if (server.kind === 'ollama') {
		if (method === 'GET' && path === '/api/version') return { status: 200, body: { version: '0.12.0' } };
		if (method === 'GET' && path === '/api/ps') {
			const models = server.loaded
				? [
						{
							name: server.loaded.name,
							model: server.loaded.name,
							size: 5_000_000_000,
							digest: 'a'.repeat(64),
							details: { format: 'gguf', family: 'llama', parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
							expires_at: '2030-01-01T00:00:00Z',
							size_vram: 5_000_000_000,
							context_length: server.loaded.contextLength
						}
					]
				: [];
			return { status: 200, body: { models } };
		}
		if (method === 'POST' && path === '/api/show') {
			const model = typeof body === 'object' && body !== null && 'model' in body ? body.model : undefined;
			if (typeof model !== 'string') return { status: 400, body: { error: 'model is required' } };
			const parameters = [
				...(server.modelfileNumCtx === undefined ? [] : [`num_ctx                        ${server.modelfileNumCtx}`]),
				'stop                           "<|eot_id|>"'
			].join('\n');
			return {
				status: 200,
				body: {
					modelfile: `FROM ${model}\n`,
					parameters,
					template: '{{ .Prompt }}',
					details: { format: 'gguf', family: 'llama' },
					model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 },
					capabilities: ['completion', 'tools']
				}
			};
		}
		return undefined;
	}
	if (method === 'GET' && path === '/v1/models')
		return {
			status: 200,
			body: {
				object: 'list',
				data: [
					{
						id: server.model,
						object: 'model',
						created: 0,
						owned_by: 'vllm',
						root: server.model,
						parent: null,
						max_model_len: server.maxModelLen
					}
				]
			}
		};
	return undefined;
}

/**
 * What context a local OpenAI-compatible server serves a model with, where the server says. A request longer
 * than that is cut from the front by these servers, silently, where the pinned mission lives; the turn engine
 * plans for the smaller of this and KANTERA_CONTEXT_TOKENS.
 *
 * - llama.cpp's server: `GET /props` gives `default_generation_settings.n_ctx`, each slot's context (its `-c`
 *   divided between its `--parallel` slots).
 * - Ollama: its OpenAI-compatible endpoint ignores any context it is sent, so the app cannot set one per
 *   request; it reads what the server uses. `GET /api/ps` gives a loaded model's `context_length`; before the
 *   model is loaded, `POST /api/show` gives the Modelfile's `num_ctx` when it sets one. Otherwise the server
 *   picks (OLLAMA_CONTEXT_LENGTH, or from the GPU's memory: 4k under 24 GiB): undefined, with a warning once.
 * - vLLM: `GET /v1/models` gives the model's `max_model_len`.
 * Each is asked at most once a minute per model; a server that answers none of them leaves the configured
 * context alone. Answers are outside data: checked with valibot, and anything else is no answer.
 */
import * as v from 'valibot';

/** How long an answer (or no answer) is kept before the server is asked again. */
export const SERVED_CONTEXT_TTL_MS = 60_000;
/** A local server answers these at once; one that does not is not held up for. */
const ASK_TIMEOUT_MS = 2_000;

const Count = v.pipe(v.number(), v.integer(), v.minValue(1));
const LlamaCppProps = v.object({ default_generation_settings: v.object({ n_ctx: Count }) });
const OllamaPs = v.object({
	models: v.array(v.object({ name: v.string(), model: v.optional(v.string()), context_length: v.optional(Count) }))
});
const OllamaShow = v.object({ parameters: v.optional(v.string()) });
const OpenAiModels = v.object({ data: v.array(v.object({ id: v.string(), max_model_len: v.optional(Count) })) });

type Fetch = typeof fetch;

/** The server's root: the base URL without the `/v1` of its OpenAI-compatible routes. */
function rootOf(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Ollama names a model `name:tag`, `latest` when none is given. */
function sameModel(a: string, b: string): boolean {
	const full = (m: string) => (m.includes(':') ? m : `${m}:latest`);
	return full(a) === full(b);
}

export interface ServedContextOptions {
	baseUrl: string;
	fetch?: Fetch;
	now?: () => number;
	/** Told once per model when an Ollama server does not say what context it will use. */
	warn?: (message: string) => void;
}

/** Asks the server behind `baseUrl`; `servedContext(model)` answers from what it said in the last minute. */
export function servedContextOf(o: ServedContextOptions): (model: string, signal?: AbortSignal) => Promise<number | undefined> {
	const doFetch = o.fetch ?? fetch;
	const now = o.now ?? Date.now;
	const root = rootOf(o.baseUrl);
	const known = new Map<string, { at: number; tokens: number | undefined }>();
	const warned = new Set<string>();

	async function ask<T>(
		schema: v.GenericSchema<unknown, T>,
		url: string,
		signal: AbortSignal | undefined,
		body?: unknown
	): Promise<T | undefined> {
		try {
			const timeout = AbortSignal.timeout(ASK_TIMEOUT_MS);
			const res = await doFetch(url, {
				method: body === undefined ? 'GET' : 'POST',
				headers: body === undefined ? {} : { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: signal ? AbortSignal.any([signal, timeout]) : timeout
			});
			if (!res.ok) return undefined;
			const parsed = v.safeParse(schema, await res.json());
			return parsed.success ? parsed.output : undefined;
		} catch {
			return undefined;
		}
	}

	async function look(model: string, signal: AbortSignal | undefined): Promise<number | undefined> {
		const props = await ask(LlamaCppProps, `${root}/props`, signal);
		if (props) return props.default_generation_settings.n_ctx;
		const ps = await ask(OllamaPs, `${root}/api/ps`, signal);
		if (ps) {
			const loaded = ps.models.find((m) => sameModel(m.name, model) || (m.model !== undefined && sameModel(m.model, model)));
			if (loaded?.context_length !== undefined) return loaded.context_length;
			const show = await ask(OllamaShow, `${root}/api/show`, signal, { model });
			const numCtx = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show?.parameters ?? '')?.[1];
			if (numCtx !== undefined) return Number(numCtx);
			if (!warned.has(model)) {
				warned.add(model);
				o.warn?.(
					`Ollama at ${root} does not say what context it runs ${model} with (it is not loaded, and its Modelfile sets no num_ctx): ` +
						`its default may be 4096 or less. Set PARAMETER num_ctx in a Modelfile or OLLAMA_CONTEXT_LENGTH, and KANTERA_CONTEXT_TOKENS to match.`
				);
			}
			return undefined;
		}
		const models = await ask(OpenAiModels, `${root}/v1/models`, signal);
		return models?.data.find((m) => m.id === model)?.max_model_len;
	}

	return async (model, signal) => {
		const seen = known.get(model);
		if (seen && now() - seen.at < SERVED_CONTEXT_TTL_MS) return seen.tokens;
		const tokens = await look(model, signal);
		known.set(model, { at: now(), tokens });
		return tokens;
	};
}

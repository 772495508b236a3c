/**
 * LLM provider settings. Unset keys are not an error: the app starts and says plainly that no provider is
 * configured (`configured: false` with the reason and what to set).
 */
import * as v from 'valibot';
import { PROVIDER_NAMES, type ProviderName } from '../../types/settings';

const NonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1));
const HttpUrl = v.pipe(v.string(), v.trim(), v.url('must be a URL'), v.regex(/^https?:\/\//i, 'must start with http:// or https://'));

/** Spread into the environment schema of config/index.ts. */
export const LLM_ENV_ENTRIES = {
	/** `openai` (any OpenAI-compatible server) or `anthropic`; when unset, inferred from which keys are set. */
	KANTERA_LLM_PROVIDER: v.optional(v.picklist(PROVIDER_NAMES, 'must be openai or anthropic')),
	/** Default model for new sessions. */
	KANTERA_LLM_MODEL: v.optional(NonEmpty),
	OPENAI_API_KEY: v.optional(NonEmpty),
	/** Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama. */
	OPENAI_BASE_URL: v.optional(HttpUrl),
	ANTHROPIC_API_KEY: v.optional(NonEmpty),
	ANTHROPIC_BASE_URL: v.optional(HttpUrl)
};

type LlmEnv = v.InferOutput<v.ObjectSchema<typeof LLM_ENV_ENTRIES, undefined>>;

/** Used when KANTERA_LLM_MODEL is unset and the provider is the vendor's own endpoint. */
export const DEFAULT_LLM_MODELS = Object.freeze({ openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-5' });

export interface ProviderEndpoint {
	apiKey: string | undefined;
	/** Undefined means the vendor's own endpoint. */
	baseUrl: string | undefined;
}

export type LlmConfig =
	| { configured: true; provider: ProviderName; model: string; openai: ProviderEndpoint; anthropic: ProviderEndpoint }
	| { configured: false; reason: string };

export const LLM_SETUP_HINT =
	'Set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama, with KANTERA_LLM_MODEL), or ANTHROPIC_API_KEY; KANTERA_LLM_PROVIDER picks one when both are set.';

/** Returns the LLM config, or an error message for settings that can never work. */
export function llmConfig(env: LlmEnv): LlmConfig | { error: string } {
	const openai = { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL };
	const anthropic = { apiKey: env.ANTHROPIC_API_KEY, baseUrl: env.ANTHROPIC_BASE_URL };
	const openaiUsable = openai.apiKey !== undefined || openai.baseUrl !== undefined;
	const anthropicUsable = anthropic.apiKey !== undefined;
	// OpenAI wins when both are set and nothing says otherwise: it is also the route to local servers.
	const provider = env.KANTERA_LLM_PROVIDER ?? (openaiUsable ? 'openai' : anthropicUsable ? 'anthropic' : undefined);
	if (provider === undefined) return { configured: false, reason: `No LLM provider is configured. ${LLM_SETUP_HINT}` };
	if (provider === 'openai' && !openaiUsable) {
		return { configured: false, reason: `KANTERA_LLM_PROVIDER is openai but neither OPENAI_API_KEY nor OPENAI_BASE_URL is set. ${LLM_SETUP_HINT}` };
	}
	if (provider === 'anthropic' && !anthropicUsable) {
		return { configured: false, reason: `KANTERA_LLM_PROVIDER is anthropic but ANTHROPIC_API_KEY is not set. ${LLM_SETUP_HINT}` };
	}
	const ownEndpoint = provider === 'openai' ? openai.baseUrl === undefined : anthropic.baseUrl === undefined;
	let model = env.KANTERA_LLM_MODEL;
	if (model === undefined) {
		// Another server's model names are its own; guessing one would fail on the first turn instead of at start-up.
		if (!ownEndpoint) return { error: `KANTERA_LLM_MODEL: required when ${provider === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL'} is set` };
		model = DEFAULT_LLM_MODELS[provider];
	}
	return { configured: true, provider, model, openai, anthropic };
}

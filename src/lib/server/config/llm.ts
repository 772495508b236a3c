/**
 * LLM provider settings. Unset keys are not an error: the app starts and says plainly that no provider is
 * configured (`configured: false` with the reason and what to set).
 */
import * as v from 'valibot';
import { HttpUrl, NonEmpty } from './env-values';
import { PROVIDER_NAMES, type ProviderName } from '../../types/settings';
import { translate } from '../../i18n/all-languages';

/** Spread into the environment schema of config/index.ts. */
export const LLM_ENV_ENTRIES = {
	/** `openai` (any OpenAI-compatible server) or `anthropic`; when unset, inferred from which keys are set. */
	KANTERA_LLM_PROVIDER: v.optional(v.picklist(PROVIDER_NAMES, 'must be openai, anthropic or google')),
	/** Default model for new sessions. */
	KANTERA_LLM_MODEL: v.optional(NonEmpty),
	OPENAI_API_KEY: v.optional(NonEmpty),
	/** Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama. */
	OPENAI_BASE_URL: v.optional(HttpUrl),
	ANTHROPIC_API_KEY: v.optional(NonEmpty),
	ANTHROPIC_BASE_URL: v.optional(HttpUrl),
	/** Gemini through its OpenAI-compatible endpoint. */
	GOOGLE_API_KEY: v.optional(NonEmpty),
	GOOGLE_BASE_URL: v.optional(HttpUrl)
};

type LlmEnv = v.InferOutput<v.ObjectSchema<typeof LLM_ENV_ENTRIES, undefined>>;

/** Used when KANTERA_LLM_MODEL is unset and the provider is the vendor's own endpoint. */
const DEFAULT_LLM_MODELS = Object.freeze({ openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-5', google: 'gemini-2.5-flash' });

interface ProviderEndpoint {
	apiKey: string | undefined;
	/** Undefined means the vendor's own endpoint. */
	baseUrl: string | undefined;
}

export type LlmConfig =
	| {
			configured: true;
			provider: ProviderName;
			model: string;
			openai: ProviderEndpoint;
			anthropic: ProviderEndpoint;
			google: ProviderEndpoint;
	  }
	| { configured: false; reason: string };

/** What to set, in English for the API, the CLI and the log; the pages' notice says it in the reader's language. */
export const LLM_SETUP_HINT = translate('en', 'llm.notice.hint');

/** Returns the LLM config, or an error message for settings that can never work. */
export function llmConfig(env: LlmEnv): LlmConfig | { error: string } {
	const endpoints: Record<ProviderName, ProviderEndpoint> = {
		openai: { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL },
		anthropic: { apiKey: env.ANTHROPIC_API_KEY, baseUrl: env.ANTHROPIC_BASE_URL },
		google: { apiKey: env.GOOGLE_API_KEY, baseUrl: env.GOOGLE_BASE_URL }
	};
	// An OpenAI-compatible server may need no key (a local Ollama); the vendors' own endpoints always do.
	const usable: Record<ProviderName, boolean> = {
		openai: endpoints.openai.apiKey !== undefined || endpoints.openai.baseUrl !== undefined,
		anthropic: endpoints.anthropic.apiKey !== undefined,
		google: endpoints.google.apiKey !== undefined || endpoints.google.baseUrl !== undefined
	};
	// OpenAI wins when several are set and nothing says otherwise: it is also the route to local servers.
	const provider = env.KANTERA_LLM_PROVIDER ?? PROVIDER_NAMES.find((name) => usable[name]);
	if (provider === undefined) return { configured: false, reason: `No LLM provider is configured. ${LLM_SETUP_HINT}` };
	if (!usable[provider])
		return { configured: false, reason: `KANTERA_LLM_PROVIDER is ${provider} but ${MISSING[provider]} ${LLM_SETUP_HINT}` };
	const ownEndpoint = endpoints[provider].baseUrl === undefined;
	let model = env.KANTERA_LLM_MODEL;
	if (model === undefined) {
		// Another server's model names are its own; guessing one would fail on the first turn instead of at start-up.
		if (!ownEndpoint) return { error: `KANTERA_LLM_MODEL: required when ${BASE_URL_VARIABLE[provider]} is set` };
		model = DEFAULT_LLM_MODELS[provider];
	}
	return { configured: true, provider, model, ...endpoints };
}

const MISSING: Record<ProviderName, string> = {
	openai: 'neither OPENAI_API_KEY nor OPENAI_BASE_URL is set.',
	anthropic: 'ANTHROPIC_API_KEY is not set.',
	google: 'neither GOOGLE_API_KEY nor GOOGLE_BASE_URL is set.'
};
const BASE_URL_VARIABLE: Record<ProviderName, string> = {
	openai: 'OPENAI_BASE_URL',
	anthropic: 'ANTHROPIC_BASE_URL',
	google: 'GOOGLE_BASE_URL'
};

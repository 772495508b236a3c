/** Builds a provider from settings; the only place that picks an adapter. */
import type { LlmConfig } from '../config';
import { checkRetryPolicy } from '../retry';
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from './anthropic';
import { LlmConfigError } from './errors';
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, type LlmRetryPolicy, type LlmTimeouts } from './guarded-stream';
import { createOpenAiProvider, OPENAI_DEFAULT_BASE_URL, OPENAI_PLACEHOLDER_KEY, type MaxTokensField } from './openai';
import type { LlmProvider, ProviderName } from './types';

/** Gemini's OpenAI-compatible endpoint (the SDK appends `/chat/completions`). */
const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta/openai';

export interface ProviderSettings {
	provider: ProviderName;
	apiKey?: string;
	/** Undefined means the vendor's own endpoint. */
	baseUrl?: string;
	timeouts?: Partial<LlmTimeouts>;
	retry?: Partial<LlmRetryPolicy>;
	/** OpenAI only: which field carries maxOutputTokens (see MaxTokensField). */
	maxTokensField?: MaxTokensField;
	/** Anthropic only: cache breakpoint on the system prompt (default on). */
	promptCaching?: boolean;
	/** For tests: the source of backoff jitter. */
	random?: () => number;
}

export function createProvider(settings: ProviderSettings): LlmProvider {
	const timeouts = { ...DEFAULT_TIMEOUTS, ...settings.timeouts };
	const retry = { ...DEFAULT_RETRY, ...settings.retry };
	checkNumbers(timeouts, retry, settings.provider);
	const apiKey = settings.apiKey === '' ? undefined : settings.apiKey;
	if (settings.provider === 'openai') {
		const baseUrl = checkBaseUrl(settings.baseUrl ?? OPENAI_DEFAULT_BASE_URL, 'openai');
		// A local server needs no key, OpenAI's own endpoint always does.
		if (apiKey === undefined && settings.baseUrl === undefined)
			throw new LlmConfigError('OPENAI_API_KEY is not set (or set OPENAI_BASE_URL for a server that needs no key).', 'openai');
		return createOpenAiProvider({
			apiKey: apiKey ?? OPENAI_PLACEHOLDER_KEY,
			baseUrl,
			timeouts,
			retry,
			maxTokensField: settings.maxTokensField,
			random: settings.random
		});
	}
	if (settings.provider === 'google') {
		// Gemini through its OpenAI-compatible endpoint: the same wire, the same SDK, Google's usage fields.
		const baseUrl = checkBaseUrl(settings.baseUrl ?? GOOGLE_DEFAULT_BASE_URL, 'google');
		if (apiKey === undefined && settings.baseUrl === undefined) throw new LlmConfigError('GOOGLE_API_KEY is not set.', 'google');
		return createOpenAiProvider({
			name: 'google',
			apiKey: apiKey ?? OPENAI_PLACEHOLDER_KEY,
			baseUrl,
			timeouts,
			retry,
			maxTokensField: settings.maxTokensField ?? 'max_tokens',
			random: settings.random
		});
	}
	const baseUrl = checkBaseUrl(settings.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL, 'anthropic');
	if (apiKey === undefined) throw new LlmConfigError('ANTHROPIC_API_KEY is not set.', 'anthropic');
	return createAnthropicProvider({ apiKey, baseUrl, timeouts, retry, promptCaching: settings.promptCaching, random: settings.random });
}

/** Settings for a session's provider from the app config; `provider` overrides the configured default. */
export function providerSettingsFromConfig(llm: LlmConfig, provider?: ProviderName): ProviderSettings {
	if (!llm.configured) throw new LlmConfigError(llm.reason);
	const name = provider ?? llm.provider;
	const endpoint = llm[name];
	return { provider: name, apiKey: endpoint.apiKey, baseUrl: endpoint.baseUrl };
}

function checkBaseUrl(raw: string, provider: ProviderName): string {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new LlmConfigError(`The ${provider} base URL is not a URL: ${raw}`, provider);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw new LlmConfigError(`The ${provider} base URL must be http(s): ${raw}`, provider);
	// Userinfo in a URL is a credential that would end up in error messages and logs.
	if (url.username || url.password)
		throw new LlmConfigError(`The ${provider} base URL must not contain credentials; use the API key setting.`, provider);
	return raw.replace(/\/+$/, '');
}

function checkNumbers(timeouts: LlmTimeouts, retry: LlmRetryPolicy, provider: ProviderName): void {
	const positive = {
		'timeouts.requestMs': timeouts.requestMs,
		'timeouts.idleMs': timeouts.idleMs,
		'timeouts.deadlineMs': timeouts.deadlineMs
	};
	for (const [name, value] of Object.entries(positive)) {
		if (!Number.isFinite(value) || value <= 0)
			throw new LlmConfigError(`${name} must be a positive number of milliseconds, got ${value}.`, provider);
	}
	const problem = checkRetryPolicy(retry);
	if (problem !== undefined) throw new LlmConfigError(problem, provider);
}

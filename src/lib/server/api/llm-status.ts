/** What the API says about the LLM: configured or not, and which provider a session may choose. */
import type { Config } from '../config';
import type { LlmStatusDto } from '../../types/api';
import type { ProviderName } from '../../types/settings';

export function llmStatus(cfg: Pick<Config, 'llm'>): LlmStatusDto {
	if (!cfg.llm.configured) return { configured: false, hint: cfg.llm.reason };
	return { configured: true, provider: cfg.llm.provider, model: cfg.llm.model };
}

/**
 * Why `provider` can't serve turns on this server, or undefined when it can: it needs an API key or
 * a base URL of its own (a local OpenAI-compatible server needs no key).
 */
export function providerProblem(cfg: Pick<Config, 'llm'>, provider: ProviderName): string | undefined {
	if (!cfg.llm.configured) return cfg.llm.reason;
	const endpoint = cfg.llm[provider];
	if (endpoint.apiKey === undefined && endpoint.baseUrl === undefined) {
		return `This server has no credentials for ${provider}; choose ${cfg.llm.provider}, or ask the operator to configure ${provider}.`;
	}
	return undefined;
}

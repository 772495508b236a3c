/**
 * Tiers: the free tier plays one model the operator picks (KANTERA_FREE_MODEL), with the daily turn quota
 * (KANTERA_FREE_TURNS_PER_DAY, in engine.ts) and no hand-made image regeneration.
 */
import * as v from 'valibot';
import { isProviderName, type ProviderName } from '../../types/settings';
import { NonEmpty } from './env-values';
import type { LlmConfig } from './llm';

export const TIERS_ENV_ENTRIES = {
	/** `model` (on the default provider) or `provider:model`, e.g. `google:gemini-2.5-flash`. Default: the server's default model. */
	KANTERA_FREE_MODEL: v.optional(NonEmpty)
};

type TiersEnv = v.InferOutput<v.ObjectSchema<typeof TIERS_ENV_ENTRIES, undefined>>;

export interface FreeModel {
	provider: ProviderName;
	model: string;
}

export interface TiersConfig {
	/** Undefined only when no LLM is configured at all. */
	freeModel: FreeModel | undefined;
}

export function freeModelConfig(e: TiersEnv, llm: LlmConfig | { error: string }): TiersConfig | { error: string } {
	if ('error' in llm || !llm.configured) return { freeModel: undefined };
	const raw = e.KANTERA_FREE_MODEL;
	if (raw === undefined) return { freeModel: { provider: llm.provider, model: llm.model } };
	const colon = raw.indexOf(':');
	const prefix = colon > 0 ? raw.slice(0, colon) : undefined;
	if (prefix !== undefined && isProviderName(prefix)) {
		const model = raw.slice(colon + 1).trim();
		if (!model) return { error: 'KANTERA_FREE_MODEL: name a model after "provider:"' };
		const endpoint = llm[prefix];
		if (endpoint.apiKey === undefined && endpoint.baseUrl === undefined)
			return { error: `KANTERA_FREE_MODEL: the provider ${prefix} is not configured on this server` };
		return { freeModel: { provider: prefix, model } };
	}
	return { freeModel: { provider: llm.provider, model: raw } };
}

/**
 * LLM providers behind one interface. The only folder that imports an LLM SDK; everything else uses these types
 * (the embeddings and images clients get their `openai` SDK client here too).
 */
export type {
	FinishReason,
	LlmEvent,
	LlmMessage,
	LlmProvider,
	LlmRequest,
	LlmToolCall,
	LlmToolSpec,
	LlmUsage,
	ProviderName
} from './types';
export { LlmError, LlmAbortedError, LlmTimeoutError, LlmConfigError, type LlmErrorKind, type TimeoutPhase } from './errors';
export { createProvider, providerSettingsFromConfig, type ProviderSettings } from './create-provider';
export { DEFAULT_RETRY, DEFAULT_TIMEOUTS, type LlmRetryPolicy, type LlmTimeouts } from './guarded-stream';
export { collectStream, type CollectedReply } from './collect';
export {
	createOpenAiEndpointClient,
	callOpenAiEndpoint,
	type OpenAiEndpointClient,
	type OpenAiEndpointOptions,
	type OpenAiCallFailure,
	type OpenAiCallResult
} from './openai-endpoints';

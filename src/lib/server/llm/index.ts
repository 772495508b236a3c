/**
 * LLM providers behind one interface. The only folder that imports an LLM SDK; everything else uses these types
 * (the embeddings and images clients get their `openai` SDK client here too).
 */
export type { LlmEvent, LlmMessage, LlmProvider, LlmRequest, LlmToolCall, LlmToolSpec, LlmUsage, ProviderName } from './types';
export { LlmError, LlmAbortedError, LlmTimeoutError, LlmConfigError, type LlmErrorKind } from './errors';
export { createProvider, providerSettingsFromConfig, type ProviderSettings } from './create-provider';
export { DEFAULT_TIMEOUTS, type LlmTimeouts } from './guarded-stream';
export { collectStream } from './collect';
export { createOpenAiEndpointClient, callOpenAiEndpoint, type OpenAiEndpointClient } from './openai-endpoints';

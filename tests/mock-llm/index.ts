export { startMockLlm, apiKeyOf, type EndpointMock, type MockLlm, type MockLlmOptions } from './server';
export {
	TINY_PNG_BASE64,
	DEFAULT_EMBEDDING_DIMENSIONS,
	type EndpointFault,
	type EndpointRequest,
	type ScriptedEmbeddings,
	type ScriptedImage
} from './endpoints';
export { SCENARIOS, lastTurn } from './scenarios';
export { systemTextOf, type LastTurn } from './request-shapes';
export type { MockHandler, RecordedRequest, ScriptedFault, ScriptedReply, ScriptedToolCall, ScriptedUsage, WireApi } from './types';
export type { LocalServer, LocalRequest } from './local-servers';

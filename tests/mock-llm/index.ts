export { startMockLlm, apiKeyOf, type MockLlm, type MockLlmOptions } from './server';
export { SCENARIOS, lastTurn } from './scenarios';
export { systemTextOf, type LastTurn } from './request-shapes';
export type { MockHandler, RecordedRequest, ScriptedFault, ScriptedReply, ScriptedToolCall, ScriptedUsage, WireApi } from './types';

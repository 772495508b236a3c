/**
 * The GM's context window: what goes into each request (the pinned mission, the records head, the
 * exchanges since the last checkpoint and those carried over it), when a checkpoint is due, and token
 * counts. Not the GM's memory notes: those are a record kind (`records/memory.ts`).
 */
export { MemoryPolicySchema, type MemoryPolicy, type TokenCounter } from './policy';
export {
	type Exchange,
	exchangeTokens,
	historyTokens,
	checkpointDue,
	windowOf,
	carryOver,
	CARRY_EXCHANGES,
	CARRY_TOKENS
} from './exchanges';
export {
	buildContext,
	renderHead,
	systemText,
	MISSION_SEPARATOR,
	type RecordsHead,
	type BuiltContext,
	type ContextMessage
} from './context';
export { checkpointInstruction, checkpointMessages, checkpointPartInstruction, summaryLimitNote, SUMMARY_HEADINGS } from './checkpoint';
export { estimateTokens } from './tokens';
export { exchangeTokensOf, type ReplyRound } from './usage-tokens';
export { countTokensO200k, loadTokenizer, tokenizerLoaded } from './tokenizer';
export {
	MAX_OUTPUT_TOKENS,
	MIN_OUTPUT_TOKENS,
	UNKNOWN_TOKENIZER_MARGIN,
	outputReserve,
	requestBudget,
	tokenizerMargin,
	type RequestBudget
} from './budget';
export { fitRequest, ContextTooSmallError, type RequestParts, type FittedRequest, type GaveWay } from './fit';
export { memoizedCounter, requestTokens, requestBytesBound, messageTokens, toolTokens } from './measure';

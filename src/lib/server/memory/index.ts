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
export { checkpointInstruction, checkpointMessages, SUMMARY_HEADINGS } from './checkpoint';
export { estimateTokens } from './tokens';
export { countTokensO200k, loadTokenizer, tokenizerLoaded } from './tokenizer';

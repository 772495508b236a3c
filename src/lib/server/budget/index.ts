export { BudgetGuard, BudgetExceededError, type ScopeState, type BudgetWarning } from './guard';
// The price table is configuration (config/prices.ts); budget's users find it here beside the arithmetic.
export { DEFAULT_PRICES, PriceTableSchema, dollarsToMicros, type PriceTable, type ModelPrice } from '../config';
export { priceFor, costMicros, worstCaseMicros } from './prices';
export {
	loadScopes,
	scopesPart,
	unreadScopes,
	recordCall,
	recordCanonGuard,
	markWarned,
	warnedPart,
	takeTurnQuota,
	returnTurnQuota,
	takeRegeneration,
	returnRegeneration,
	utcDay,
	utcMonth,
	nextUtcDay,
	type ScopeLimits
} from './usage';
export {
	reserve,
	reservePart,
	reserveWhenFree,
	sharedScopesApply,
	settle,
	settlePart,
	release,
	releasePart,
	reservedMicros,
	type Reservation,
	type Payer
} from './reservations';
export { runParts, runPart, type BatchPart } from './batch';
export { callLogInsert, pruneCallLog, CALL_LOG_PRUNE_EVERY_MS, type CallRecord } from './calls';

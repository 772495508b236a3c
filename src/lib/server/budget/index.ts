export { BudgetGuard, BudgetExceededError, type ScopeName, type ScopeLimit, type ScopeState, type BudgetWarning, type Unit } from './guard';
export {
	DEFAULT_PRICES,
	PriceTableSchema,
	ModelPriceSchema,
	priceFor,
	costMicros,
	worstCaseMicros,
	dollarsToMicros,
	type PriceTable,
	type ModelPrice,
	type Usage
} from './prices';
export {
	loadScopes,
	recordCall,
	markWarned,
	takeTurnQuota,
	returnTurnQuota,
	takeRegeneration,
	returnRegeneration,
	utcDay,
	utcMonth,
	nextUtcDay,
	type ScopeLimits,
	type MoneyLimits,
	type Who,
	type QuotaResult
} from './usage';
export {
	reserve,
	reserveWhenFree,
	settle,
	release,
	reservedMicros,
	RESERVATION_RETRY_MS,
	type Reservation,
	type SharedLimits,
	type SharedScope,
	type SharedTotals,
	type Payer
} from './reservations';
export { callLogInsert, type CallRecord } from './calls';

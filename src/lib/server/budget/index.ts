export { BudgetGuard, BudgetExceededError, type ScopeState, type BudgetWarning } from './guard';
export {
	DEFAULT_PRICES,
	PriceTableSchema,
	priceFor,
	costMicros,
	worstCaseMicros,
	dollarsToMicros,
	type PriceTable,
	type ModelPrice
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
	type ScopeLimits
} from './usage';
export { reserve, reserveWhenFree, settle, release, reservedMicros, type Reservation, type Payer } from './reservations';
export { callLogInsert, type CallRecord } from './calls';

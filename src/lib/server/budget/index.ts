export { BudgetGuard, BudgetExceededError, type ScopeName, type ScopeLimit, type ScopeState, type BudgetWarning, type Unit } from './guard';
export { DEFAULT_PRICES, PriceTableSchema, ModelPriceSchema, priceFor, costMicros, microsToDollars, dollarsToMicros, type PriceTable, type ModelPrice, type Usage } from './prices';
export { loadScopes, recordCall, markWarned, takeTurnQuota, returnTurnQuota, utcDay, utcMonth, nextUtcDay, type ScopeLimits, type MoneyLimits, type Who, type QuotaResult } from './usage';

/** What the operator sees of LLM usage: reports from the call log, and their CSV. */
export { usageReport, parseRange, percentile } from './report';
export { usageCsv, csvField, CSV_VIEWS } from './csv';
export { sessionSpend } from './spend';
export { canonGuardReport, type CanonGuardReport } from './canon-guard';

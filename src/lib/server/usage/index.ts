/** What the operator sees of LLM usage: reports from the call log, and their CSV. */
export {
	usageReport,
	parseRange,
	daysOf,
	percentile,
	MAX_REPORT_DAYS,
	DEFAULT_REPORT_DAYS,
	type UsageReport,
	type UsageTotals,
	type DayUsage,
	type ModelUsage,
	type UserUsage,
	type ReportRange
} from './report';
export { usageCsv, csvField, CSV_VIEWS, type CsvView } from './csv';
export { sessionSpend } from './spend';

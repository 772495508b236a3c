/** CSV (RFC 4180) of the usage report's tables, for spreadsheets. */
import type { UsageReport } from './report';

export const CSV_VIEWS = ['days', 'models', 'users'] as const;
export type CsvView = (typeof CSV_VIEWS)[number];

/** Quotes a field when it must be, and defuses a leading =, +, - or @ that a spreadsheet would run as a formula. */
export function csvField(value: string | number | null): string {
	if (value === null) return '';
	if (typeof value === 'number') return String(value);
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const usd = (micros: number) => (micros / 1_000_000).toFixed(6);
const TOKEN_COLUMNS = [
	'calls',
	'input_tokens',
	'cached_input_tokens',
	'cache_write_tokens',
	'output_tokens',
	'cost_usd',
	'failures',
	'retries',
	'p50_latency_ms',
	'p95_latency_ms'
];

export function usageCsv(report: UsageReport, view: CsvView): string {
	let header: string[];
	let rows: (string | number | null)[][];
	const numbers = (t: UsageReport['total']) => [
		t.calls,
		t.inputTokens,
		t.cachedInputTokens,
		t.cacheWriteTokens,
		t.outputTokens,
		usd(t.costMicros),
		t.failures,
		t.retries,
		t.p50Ms,
		t.p95Ms
	];
	if (view === 'days') {
		header = ['day', 'provider', 'model', ...TOKEN_COLUMNS];
		rows = report.dayModels.map((r) => [r.day, r.provider, r.model, ...numbers(r)]);
	} else if (view === 'models') {
		header = ['provider', 'model', ...TOKEN_COLUMNS];
		rows = report.models.map((r) => [r.provider, r.model, ...numbers(r)]);
	} else {
		header = ['user', 'tier', 'turns', 'calls', 'input_tokens', 'cached_input_tokens', 'output_tokens', 'cost_usd'];
		rows = report.users.map((u) => [
			u.name,
			u.tier,
			u.turns,
			u.calls,
			u.inputTokens,
			u.cachedInputTokens,
			u.outputTokens,
			usd(u.costMicros)
		]);
	}
	return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

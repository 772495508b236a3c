/** Percentiles and small summaries for bench output. */

/** Nearest-rank percentile (p in 0–100) of an unsorted sample. */
export function percentile(xs: readonly number[], p: number): number {
	if (xs.length === 0) return Number.NaN;
	const sorted = [...xs].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank] ?? Number.NaN;
}

export function mean(xs: readonly number[]): number {
	return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export interface Spread {
	n: number;
	min: number;
	mean: number;
	max: number;
	/** How far the extremes lie from the mean, as fractions: "within ±20 %" means both ≤ 0.2. */
	belowMean: number;
	aboveMean: number;
}

export function spread(xs: readonly number[]): Spread {
	const m = mean(xs);
	const min = Math.min(...xs);
	const max = Math.max(...xs);
	return { n: xs.length, min, mean: m, max, belowMean: 1 - min / m, aboveMean: max / m - 1 };
}

export interface Latency {
	p50: number;
	p95: number;
	max: number;
	mean: number;
}

export function latency(xs: readonly number[]): Latency {
	return { p50: percentile(xs, 50), p95: percentile(xs, 95), max: Math.max(...xs), mean: mean(xs) };
}

export const ms = (x: number): string => `${x.toFixed(2)} ms`;
export const round = (x: number, digits = 2): number => Number(x.toFixed(digits));

/** A plain fixed-width table for the terminal. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
	const cells = [header, ...rows].map((r) => r.map(String));
	const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
	const line = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
	return [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Number formats and colours shared by the charts and their tables. */

/** Distinguishable for the common colour-vision deficiencies (blue, light blue, orange, purple, teal, brown). */
export const CHART_COLORS = ['#2d5b8a', '#7fa8d8', '#d9822b', '#8a4d9e', '#3a8f7e', '#8c6a3f'] as const;

const MICROS_PER_DOLLAR = 1_000_000;

/** Micro-dollars as dollars: cents for larger sums, more digits for the tiny per-turn amounts. */
export function usd(micros: number): string {
	const dollars = micros / MICROS_PER_DOLLAR;
	if (dollars === 0) return '$0';
	if (Math.abs(dollars) >= 1) return `$${dollars.toFixed(2)}`;
	if (Math.abs(dollars) >= 0.001) return `$${dollars.toFixed(3)}`;
	return `$${dollars.toFixed(5)}`;
}

export function tokens(n: number): string {
	return Math.round(n).toLocaleString('en');
}

export function ms(n: number | null): string {
	return n === null ? '—' : `${Math.round(n).toLocaleString('en')} ms`;
}

export function percent(ratio: number | null): string {
	return ratio === null ? '—' : `${(ratio * 100).toFixed(0)}%`;
}

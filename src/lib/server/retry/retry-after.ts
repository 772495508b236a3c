/** Reading how long a server asked us to wait. */

/** The one header accessor every response object we meet has (fetch's Headers, the SDKs' error headers). */
export interface HeaderSource {
	get(name: string): string | null;
}

/**
 * Parses `retry-after-ms` (OpenAI's, milliseconds) or `retry-after` (seconds, or an HTTP date) into milliseconds
 * from `now`. A date in the past means "now" (0); anything unreadable is as if the server had said nothing.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
	if (!headers) return undefined;
	const rawMs = headers.get('retry-after-ms');
	const ms = Number(rawMs);
	if (rawMs !== null && rawMs.trim() !== '' && Number.isFinite(ms) && ms >= 0) return ms;
	const raw = headers.get('retry-after');
	if (raw === null || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
	const date = Date.parse(raw);
	return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

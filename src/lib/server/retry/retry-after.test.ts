/** How long a server asked us to wait: seconds, milliseconds, an HTTP date. */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('Retry-After header', () => {
	const now = Date.UTC(2030, 0, 1, 12, 0, 0);

	it('reads seconds', () => {
		expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3_000);
		expect(retryAfterMs(headers({ 'retry-after': '0' }), now)).toBe(0);
		expect(retryAfterMs(headers({ 'retry-after': '1.5' }), now)).toBe(1_500);
	});

	it('reads an HTTP date, a past one as now', () => {
		expect(retryAfterMs(headers({ 'retry-after': new Date(now + 42_000).toUTCString() }), now)).toBe(42_000);
		expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), now)).toBe(0);
	});

	it('prefers retry-after-ms, and ignores what it cannot read', () => {
		expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
		expect(retryAfterMs(headers({ 'retry-after-ms': 'soon', 'retry-after': '9' }), now)).toBe(9_000);
		expect(retryAfterMs(headers({ 'retry-after': 'later' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({ 'retry-after': '-5' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({ 'retry-after': '' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({}), now)).toBeUndefined();
		expect(retryAfterMs(undefined, now)).toBeUndefined();
	});
});

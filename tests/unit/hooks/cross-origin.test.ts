/**
 * A signed-in browser's cookie is sent by pages of other origins on the same site (another port of
 * the same host): state-changing requests carrying it must come from this origin.
 */
import { describe, expect, it } from 'vitest';
import { isCrossOriginRequest } from '../../../src/lib/server/hooks/auth';

const url = new URL('http://127.0.0.1:3000/api/v1/sessions/abc/turns/def/cancel');

function request(method: string, headers: Record<string, string>): Request {
	return new Request(url, { method, headers });
}

describe('isCrossOriginRequest', () => {
	it('refuses an unsafe request from another origin, even one on the same host', () => {
		expect(isCrossOriginRequest(request('POST', { origin: 'http://127.0.0.1:4000' }), url)).toBe(true);
		expect(isCrossOriginRequest(request('DELETE', { origin: 'https://evil.example' }), url)).toBe(true);
		expect(isCrossOriginRequest(request('POST', { 'sec-fetch-site': 'same-site' }), url)).toBe(true);
		expect(isCrossOriginRequest(request('PUT', { 'sec-fetch-site': 'cross-site' }), url)).toBe(true);
	});

	it('lets this origin, safe methods and non-browser clients through', () => {
		expect(isCrossOriginRequest(request('POST', { origin: 'http://127.0.0.1:3000' }), url)).toBe(false);
		expect(isCrossOriginRequest(request('POST', { 'sec-fetch-site': 'same-origin' }), url)).toBe(false);
		expect(isCrossOriginRequest(request('GET', { origin: 'http://127.0.0.1:4000' }), url)).toBe(false);
		expect(isCrossOriginRequest(request('POST', {}), url)).toBe(false);
	});
});

/** Where sign-in and the language switch send the browser afterwards: only a path of this site. */
import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from '../../../src/lib/server/hooks/guards';

const SITE = new URL('http://127.0.0.1:3000/signin?redirectTo=x');

describe('safeRedirectTarget', () => {
	it.each([
		['/', '/'],
		['/sessions/abc', '/sessions/abc'],
		['/settings/tokens?tab=new#list', '/settings/tokens?tab=new#list'],
		['/sessions/北門', '/sessions/%E5%8C%97%E9%96%80'],
		['/a/../b', '/b'],
		['/%2F%2Fevil.example', '/%2F%2Fevil.example']
	])('keeps the same-site path %j', (target, expected) => {
		expect(safeRedirectTarget(target, SITE)).toBe(expected);
	});

	it.each([
		null,
		'',
		'evil.example',
		'https://evil.example/',
		'http://127.0.0.1:3001/',
		'javascript:alert(1)',
		'//evil.example/x',
		'/\\evil.example/x',
		'\\\\evil.example',
		'/\t/evil.example/x',
		'/\n/evil.example',
		'/\r\n/evil.example',
		'\t//evil.example',
		' /x',
		'/x\u0000y',
		'/x\u007f',
		'/x\u0085',
		'/\u200b/evil.example',
		'/%09/evil.example/x'.replace('%09', '\t'),
		'/.\\.\\/evil'
	])('sends %j home', (target) => {
		const result = safeRedirectTarget(target, SITE);
		expect(result.startsWith('/')).toBe(true);
		expect(new URL(result, SITE).origin).toBe(SITE.origin);
		if (target !== null && /[\p{Cc}\\]|^\/\/|:\/\/|^[^/]/u.test(target)) expect(result).toBe('/');
	});

	it('never throws and never returns something a Location header cannot carry', () => {
		for (let code = 0; code < 0x200; code++) {
			const target = `/${String.fromCharCode(code)}/evil.example/${String.fromCharCode(code)}`;
			const result = safeRedirectTarget(target, SITE);
			expect(() => new Headers({ location: result })).not.toThrow();
			expect(new URL(result, SITE).origin).toBe(SITE.origin);
			expect(result).not.toMatch(/^\/\//);
		}
	});
});

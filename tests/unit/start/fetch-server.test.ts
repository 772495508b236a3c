/** What the Bun and Deno servers share (bin/fetch-server.js): the API's 415, event streams told apart, the origin and the client's address. */
import { describe, expect, it } from 'vitest';
import { apiFormPostRefusal, clientAddressOf, isEventStream, originOf, originSettings, withOrigin } from '../../../bin/fetch-server.js';
import { StartError } from '../../../bin/server-setup.js';

const NONE = originSettings({});

describe('apiFormPostRefusal', () => {
	it('answers a form-typed body to the API with the API’s JSON 415, and lets everything else through', async () => {
		const refusal = apiFormPostRefusal(
			new Request('http://127.0.0.1:3000/api/v1/sessions', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
		);
		expect(refusal?.status).toBe(415);
		expect(refusal?.headers.get('content-type')).toBe('application/json');
		expect(await refusal?.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
		expect(
			apiFormPostRefusal(
				new Request('http://127.0.0.1:3000/api/v1/sessions', {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}'
				})
			)
		).toBeNull();
		expect(
			apiFormPostRefusal(
				new Request('http://127.0.0.1:3000/signup', {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: 'a=b'
				})
			)
		).toBeNull();
	});
});

describe('isEventStream', () => {
	it('is true for text/event-stream only', () => {
		expect(isEventStream(new Response('', { headers: { 'content-type': 'text/event-stream' } }))).toBe(true);
		expect(isEventStream(new Response('', { headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' } }))).toBe(true);
		expect(isEventStream(new Response('{}', { headers: { 'content-type': 'application/json' } }))).toBe(false);
	});
});

describe('the origin a request is seen at', () => {
	const req = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

	it('with nothing set: the connection’s scheme and the Host, whatever a client claims', () => {
		const request = req('http://localhost:3000/signup', { 'x-forwarded-proto': 'https', 'x-kantera-socket-protocol': 'https' });
		expect(originOf(request, NONE)).toBe('http://localhost:3000');
		expect(withOrigin(request, NONE)).toBe(request);
	});

	it('ORIGIN wins; the request keeps its path, query, method, headers and body', async () => {
		const s = originSettings({ ORIGIN: 'https://kantera.example/ignored/path' });
		expect(s.origin).toBe('https://kantera.example');
		const moved = withOrigin(
			new Request('http://127.0.0.1:3000/api/v1/sessions?x=1', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"a":1}'
			}),
			s
		);
		expect(moved.url).toBe('https://kantera.example/api/v1/sessions?x=1');
		expect(moved.method).toBe('POST');
		expect(moved.headers.get('content-type')).toBe('application/json');
		expect(await moved.text()).toBe('{"a":1}');
	});

	it('PROTOCOL_HEADER, HOST_HEADER and PORT_HEADER, as adapter-node reads them (https when the protocol header is missing)', () => {
		const s = originSettings({ PROTOCOL_HEADER: 'X-Forwarded-Proto', HOST_HEADER: 'x-forwarded-host', PORT_HEADER: 'x-forwarded-port' });
		expect(originOf(req('http://127.0.0.1:3000/', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'play.example' }), s)).toBe(
			'https://play.example'
		);
		expect(originOf(req('http://127.0.0.1:3000/', { 'x-forwarded-host': 'play.example', 'x-forwarded-port': '8443' }), s)).toBe(
			'https://play.example:8443'
		);
		expect(originOf(req('http://127.0.0.1:3000/'), s)).toBe('https://127.0.0.1:3000');
	});

	it('refuses a bad ORIGIN or header name at start', () => {
		expect(() => originSettings({ ORIGIN: 'kantera.example' })).toThrow(StartError);
		expect(() => originSettings({ ORIGIN: 'ftp://kantera.example' })).toThrow(/ORIGIN/);
		expect(() => originSettings({ HOST_HEADER: 'bad header' })).toThrow(/HOST_HEADER/);
		expect(() => originSettings({ XFF_DEPTH: '0' })).toThrow(/XFF_DEPTH/);
	});
});

describe('clientAddressOf', () => {
	it('is the peer unless ADDRESS_HEADER is set; X-Forwarded-For is read XFF_DEPTH from the right', () => {
		const request = new Request('http://127.0.0.1:3000/', {
			headers: { 'x-forwarded-for': '6.6.6.6, 1.2.3.4, 10.0.0.1', 'true-client-ip': '9.9.9.9' }
		});
		expect(clientAddressOf(request, '10.0.0.2', NONE)).toBe('10.0.0.2');
		expect(clientAddressOf(request, '10.0.0.2', originSettings({ ADDRESS_HEADER: 'True-Client-IP' }))).toBe('9.9.9.9');
		expect(clientAddressOf(request, '10.0.0.2', originSettings({ ADDRESS_HEADER: 'x-forwarded-for' }))).toBe('10.0.0.1');
		expect(clientAddressOf(request, '10.0.0.2', originSettings({ ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '2' }))).toBe('1.2.3.4');
		expect(() => clientAddressOf(request, '10.0.0.2', originSettings({ ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '4' }))).toThrow(
			/XFF_DEPTH is 4/
		);
		expect(() =>
			clientAddressOf(new Request('http://127.0.0.1:3000/'), '10.0.0.2', originSettings({ ADDRESS_HEADER: 'x-real-ip' }))
		).toThrow(/x-real-ip/);
	});
});

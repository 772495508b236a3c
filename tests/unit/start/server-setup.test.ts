/** How `npm start` (bin/server.js) prepares adapter-node: the origin's scheme, one body limit, the API's 415. */
import { describe, expect, it } from 'vitest';
import {
	DEFAULT_MAX_BODY_BYTES,
	SOCKET_PROTOCOL_HEADER,
	StartError,
	isFormPostToApi,
	parseByteSize,
	startSettings
} from '../../../bin/server-setup.js';
import { parseConfig } from '../../../src/lib/server/config';

describe('startSettings', () => {
	it('with nothing set: the scheme comes from the socket, BODY_SIZE_LIMIT follows the app, port 3000 on all interfaces', () => {
		const s = startSettings({});
		expect(s.socketProtocolHeader).toBe(SOCKET_PROTOCOL_HEADER);
		expect(s.adapterEnv).toEqual({ PROTOCOL_HEADER: SOCKET_PROTOCOL_HEADER, BODY_SIZE_LIMIT: String(DEFAULT_MAX_BODY_BYTES) });
		expect(s.listen).toEqual({ host: '0.0.0.0', port: 3000 });
		expect(s.shutdownTimeoutS).toBe(30);
	});

	it('uses the same default body limit as the app', () => {
		expect(DEFAULT_MAX_BODY_BYTES).toBe(parseConfig({}).maxBodyBytes);
	});

	it('leaves the origin to the operator once ORIGIN or PROTOCOL_HEADER is set', () => {
		expect(startSettings({ ORIGIN: 'https://kantera.example' }).socketProtocolHeader).toBeUndefined();
		expect(startSettings({ ORIGIN: 'https://kantera.example' }).adapterEnv).not.toHaveProperty('PROTOCOL_HEADER');
		expect(startSettings({ PROTOCOL_HEADER: 'x-forwarded-proto' }).socketProtocolHeader).toBeUndefined();
		// A host header alone says nothing about the scheme: it still comes from the socket.
		expect(startSettings({ HOST_HEADER: 'x-forwarded-host' }).socketProtocolHeader).toBe(SOCKET_PROTOCOL_HEADER);
		// Empty means unset, as everywhere in the configuration.
		expect(startSettings({ ORIGIN: '' }).socketProtocolHeader).toBe(SOCKET_PROTOCOL_HEADER);
	});

	it('sets BODY_SIZE_LIMIT from KANTERA_MAX_BODY_BYTES and refuses a smaller one', () => {
		expect(startSettings({ KANTERA_MAX_BODY_BYTES: '2000000' }).adapterEnv.BODY_SIZE_LIMIT).toBe('2000000');
		expect(startSettings({ BODY_SIZE_LIMIT: '2M' }).adapterEnv).not.toHaveProperty('BODY_SIZE_LIMIT');
		expect(startSettings({ BODY_SIZE_LIMIT: 'Infinity' }).maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES);
		expect(() => startSettings({ BODY_SIZE_LIMIT: '512K' })).toThrow(/BODY_SIZE_LIMIT.*below KANTERA_MAX_BODY_BYTES/s);
		expect(() => startSettings({ BODY_SIZE_LIMIT: '2M', KANTERA_MAX_BODY_BYTES: '3000000' })).toThrow(StartError);
		expect(() => startSettings({ BODY_SIZE_LIMIT: 'lots' })).toThrow(/BODY_SIZE_LIMIT/);
	});

	it('Bun: a connection idle for IDLE_TIMEOUT seconds is closed (10 unless set, at most 255); BODY_SIZE_LIMIT is its outer cap when set', () => {
		expect(startSettings({}).idleTimeoutS).toBe(10);
		expect(startSettings({ IDLE_TIMEOUT: '0' }).idleTimeoutS).toBe(0);
		expect(startSettings({ IDLE_TIMEOUT: '255' }).idleTimeoutS).toBe(255);
		expect(() => startSettings({ IDLE_TIMEOUT: '256' })).toThrow(/IDLE_TIMEOUT/);
		expect(startSettings({}).bodySizeLimit).toBeUndefined();
		expect(startSettings({ BODY_SIZE_LIMIT: '2M' }).bodySizeLimit).toBe(2_097_152);
	});

	it('names every bad variable', () => {
		let message = '';
		try {
			startSettings({ PORT: 'eighty', KANTERA_MAX_BODY_BYTES: '0', SHUTDOWN_TIMEOUT: '-1' });
		} catch (err) {
			if (err instanceof StartError) message = err.message;
		}
		expect(message).toMatch(/PORT/);
		expect(message).toMatch(/KANTERA_MAX_BODY_BYTES/);
		expect(message).toMatch(/SHUTDOWN_TIMEOUT/);
	});

	it('reads sizes as adapter-node does', () => {
		expect(parseByteSize('512K')).toBe(524_288);
		expect(parseByteSize('1m')).toBe(1_048_576);
		expect(parseByteSize('10')).toBe(10);
		expect(parseByteSize('Infinity')).toBe(Infinity);
		expect(parseByteSize('K')).toBeNaN();
	});
});

describe('isFormPostToApi', () => {
	it.each([
		['POST', '/api/v1/sessions', 'text/plain', true],
		['POST', '/api/v1/sessions', 'text/plain;charset=UTF-8', true],
		['PUT', '/api/v1/sessions/x/documents/1', 'application/x-www-form-urlencoded', true],
		['DELETE', '/api/v1/sessions/x', 'multipart/form-data; boundary=y', true],
		['POST', '/%61pi/v1/sessions', 'TEXT/PLAIN', true],
		['POST', '/api/v1/sessions', 'application/json', false],
		['POST', '/api/v1/sessions/x/turns/y/cancel', undefined, false],
		['GET', '/api/v1/sessions', 'text/plain', false],
		['POST', '/signin', 'application/x-www-form-urlencoded', false],
		['POST', '/apiary', 'text/plain', false]
	])('%s %s (%s) → %s', (method, url, type, expected) => {
		expect(isFormPostToApi({ method, url, headers: type === undefined ? {} : { 'content-type': type } })).toBe(expected);
	});
});

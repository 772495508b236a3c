// @ts-check
// What the Bun and Deno servers (bin/server-bun.js, bin/server-deno.js) share: both hand SvelteKit a
// WHATWG Request and get a Response back, so the guarantees of `npm start` under Node (bin/server.js)
// are kept here once, free of any runtime API so they can be tested under Node:
// - a form-typed body sent to the JSON API is answered 415 (JSON) before SvelteKit sees it;
// - an event stream is told apart from other answers (it must never be cut for being quiet);
// - the origin of a request and the client's address follow adapter-node's variables (ORIGIN,
//   PROTOCOL_HEADER, HOST_HEADER, PORT_HEADER, ADDRESS_HEADER, XFF_DEPTH), for the Deno server, whose
//   adapter reads none of them. With none set, the origin is the one the browser used: the scheme of
//   the connection (these servers speak plain http) and the Host header.
import * as v from 'valibot';
import { API_FORM_POST_RESPONSE, StartError, isFormPostToApi } from './server-setup.js';

/**
 * The 415 answer when `request` is a form-typed body sent to the API, else null.
 * @param {Request} request
 * @returns {Response | null}
 */
export function apiFormPostRefusal(request) {
	const url = new URL(request.url);
	const contentType = request.headers.get('content-type') ?? undefined;
	if (!isFormPostToApi({ method: request.method, url: url.pathname + url.search, headers: { 'content-type': contentType } })) return null;
	return new Response(API_FORM_POST_RESPONSE.body, { status: API_FORM_POST_RESPONSE.status, headers: API_FORM_POST_RESPONSE.headers });
}

/**
 * Whether an answer is a server-sent event stream (the session's events), which stays open for as
 * long as the player watches and may be quiet for a long time between turns.
 * @param {Response} response
 */
export function isEventStream(response) {
	return (response.headers.get('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'text/event-stream';
}

const HeaderName = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[!#$%&'*+.^_`|~0-9a-z-]+$/, 'must be a header name'));
const OriginEnv = v.object({
	ORIGIN: v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.url('must be a URL such as https://kantera.example'),
			v.regex(/^https?:\/\//i, 'must be an http:// or https:// URL'),
			v.transform((s) => new URL(s).origin)
		)
	),
	PROTOCOL_HEADER: v.optional(HeaderName),
	HOST_HEADER: v.optional(HeaderName),
	PORT_HEADER: v.optional(HeaderName),
	ADDRESS_HEADER: v.optional(HeaderName),
	XFF_DEPTH: v.optional(
		v.pipe(v.string(), v.trim(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1')),
		'1'
	)
});

/**
 * @typedef {object} OriginSettings
 * @property {string | undefined} origin ORIGIN, as scheme://host[:port]
 * @property {string | undefined} protocolHeader
 * @property {string | undefined} hostHeader
 * @property {string | undefined} portHeader
 * @property {string | undefined} addressHeader
 * @property {number} xffDepth
 */

/**
 * adapter-node's origin and address variables, validated (empty means unset).
 * @param {Record<string, string | undefined>} env
 * @returns {OriginSettings}
 */
export function originSettings(env) {
	const cleaned = Object.fromEntries(
		Object.entries(env).filter(([key, value]) => key in OriginEnv.entries && value !== undefined && value !== '')
	);
	const parsed = v.safeParse(OriginEnv, cleaned);
	if (!parsed.success) {
		const lines = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(environment)'}: ${issue.message}`);
		throw new StartError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
	}
	const e = parsed.output;
	return {
		origin: e.ORIGIN,
		protocolHeader: e.PROTOCOL_HEADER,
		hostHeader: e.HOST_HEADER,
		portHeader: e.PORT_HEADER,
		addressHeader: e.ADDRESS_HEADER,
		xffDepth: e.XFF_DEPTH
	};
}

/**
 * The origin SvelteKit must see for a request that reached this server over plain http: ORIGIN when
 * set; else from the proxy's headers where configured (https when a configured PROTOCOL_HEADER is
 * missing, as adapter-node assumes); else the connection's own scheme and the Host header.
 * @param {Request} request as the runtime built it (its URL has the connection's scheme and the Host)
 * @param {OriginSettings} settings
 */
export function originOf(request, settings) {
	if (settings.origin) return settings.origin;
	const own = new URL(request.url);
	const protocol = settings.protocolHeader ? request.headers.get(settings.protocolHeader) || 'https' : own.protocol.slice(0, -1);
	const host = (settings.hostHeader && request.headers.get(settings.hostHeader)) || own.host;
	const port = settings.portHeader && request.headers.get(settings.portHeader);
	return port ? `${protocol}://${host}:${port}` : `${protocol}://${host}`;
}

/**
 * `request` with its URL moved to `originOf`; the same request when nothing changes. Headers, body and
 * abort signal (a closed event stream) carry over.
 * @param {Request} request
 * @param {OriginSettings} settings
 * @returns {Request}
 */
export function withOrigin(request, settings) {
	const url = new URL(request.url);
	const origin = originOf(request, settings);
	if (origin === url.origin) return request;
	let target;
	try {
		target = new URL(url.pathname + url.search, origin);
	} catch {
		// A forwarded host that makes no URL: answered by SvelteKit as any other bad request would be.
		return request;
	}
	return new Request(target, request);
}

/**
 * The client's address as adapter-node gives it: from ADDRESS_HEADER (the XFF_DEPTH-th address from
 * the right of X-Forwarded-For) when configured, else the connection's peer. Throws, as adapter-node
 * does, when the configured header is missing (the app then treats the address as unknown).
 * @param {Request} request
 * @param {string} peer the connection's remote address
 * @param {OriginSettings} settings
 */
export function clientAddressOf(request, peer, settings) {
	const header = settings.addressHeader;
	if (!header) return peer;
	const value = request.headers.get(header);
	if (value === null) throw new Error(`Address header was specified with ADDRESS_HEADER=${header} but is absent from request`);
	if (header !== 'x-forwarded-for') return value;
	const addresses = value.split(',');
	if (settings.xffDepth > addresses.length)
		throw new Error(`XFF_DEPTH is ${settings.xffDepth}, but only found ${addresses.length} addresses`);
	return (addresses[addresses.length - settings.xffDepth] ?? '').trim();
}

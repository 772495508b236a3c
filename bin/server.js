#!/usr/bin/env node
// @ts-check
// What `npm start` runs: the built app (adapter-node's request handler, build/handler.js) in an HTTP
// server of our own, as adapter-node's "custom server" allows. It exists for two things the stock
// `node build` gets wrong for a server started with nothing set:
// - With ORIGIN unset, adapter-node takes the scheme from PROTOCOL_HEADER or else assumes https, so a
//   browser at http://localhost:3000 has its own form posts refused as cross-site. Here the scheme
//   comes from the connection itself (this server speaks plain http), never from what a client sends.
// - adapter-node caps bodies at BODY_SIZE_LIMIT (512K) below the app's KANTERA_MAX_BODY_BYTES; here
//   the two agree (the app enforces the limit and answers 413 itself).
// ORIGIN, PROTOCOL_HEADER, HOST_HEADER, ADDRESS_HEADER and XFF_DEPTH keep their adapter-node meaning.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { API_FORM_POST_RESPONSE, isFormPostToApi, noteOrigin, startOrExit, startSettings } from './server-setup.js';

const settings = startOrExit('node', () => startSettings(process.env));
// adapter-node reads its variables once, when the handler module loads.
Object.assign(process.env, settings.adapterEnv);
const handlerUrl = new URL('../build/handler.js', import.meta.url);
/** @type {unknown} */
const built = await import(handlerUrl.href);
if (!isHandlerModule(built)) {
	console.error(`${fileURLToPath(handlerUrl)} exports no request handler: build the app again (npm run build).`);
	process.exit(1);
}
const { handler } = built;

const server = http.createServer((req, res) => {
	if (settings.socketProtocolHeader) {
		req.headers[settings.socketProtocolHeader] = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
	}
	if (isFormPostToApi(req)) {
		// The body is never read: the connection closes after the answer so it cannot be misparsed.
		res.writeHead(API_FORM_POST_RESPONSE.status, { ...API_FORM_POST_RESPONSE.headers, connection: 'close' });
		res.end(API_FORM_POST_RESPONSE.body);
		return;
	}
	handler(req, res, () => {
		res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
		res.end('Not found');
	});
});
if (settings.keepAliveTimeoutS !== undefined) server.keepAliveTimeout = settings.keepAliveTimeoutS * 1000;
if (settings.headersTimeoutS !== undefined) server.headersTimeout = settings.headersTimeoutS * 1000;

const { listen } = settings;
server.listen(listen, () => {
	const where = 'path' in listen ? listen.path : `http://${listen.host}:${listen.port}`;
	console.log(`Listening on ${where}`);
	noteOrigin(settings);
});

/** Stops taking requests, lets running ones finish for SHUTDOWN_TIMEOUT seconds, as adapter-node does. */
let stopping = false;
/** @param {NodeJS.Signals} signal */
function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	// Keep-alive connections would hold close() open; idle ones are closed now, busy ones when done.
	server.closeIdleConnections();
	server.on('request', (_req, res) => res.on('finish', () => server.closeIdleConnections()));
	server.close(() => {
		// @ts-expect-error adapter-node's custom event, which app code may listen for
		process.emit('sveltekit:shutdown', signal);
	});
	setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutS * 1000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

/**
 * @param {unknown} mod
 * @returns {mod is { handler: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void }}
 */
function isHandlerModule(mod) {
	return typeof mod === 'object' && mod !== null && 'handler' in mod && typeof mod.handler === 'function';
}

// @ts-check
// What `KANTERA_ADAPTER=bun npm start` runs under Bun (bin/start.js starts it): svelte-adapter-bun's
// request handler (build-bun/handler.js) in a Bun.serve of our own, for what its stock index.js does
// not give — the things `npm start` gives under Node (bin/server.js):
// - With ORIGIN unset the adapter assumes https, so a browser at http://localhost:3000 would have its
//   own form posts refused as cross-site. Here the scheme comes from the connection (Bun.serve speaks
//   plain http here), never from what a client sends.
// - One body limit, the app's KANTERA_MAX_BODY_BYTES, answered by the app (JSON under /api/). Bun would
//   refuse a body over its maxRequestBodySize with a bare 413 before the app sees it, so that cap is
//   BODY_SIZE_LIMIT only when the operator sets one (never below the app's limit). Bun does not buffer
//   a body the app stops reading: a huge upload is cut off, not held in memory.
// - A form-typed body sent to /api/ is answered 415 (JSON).
// - Bun closes a connection after IDLE_TIMEOUT seconds of silence (10 by default) and counts a request
//   whose answer is still being worked on as silent. Here a request has no time limit while the app
//   works on it, and an event stream none for as long as it is open, however quiet; only a connection
//   idle between requests is closed after IDLE_TIMEOUT.
// PORT, HOST, SOCKET_PATH, ORIGIN, PROTOCOL_HEADER, HOST_HEADER, PORT_HEADER, ADDRESS_HEADER, XFF_DEPTH
// and SHUTDOWN_TIMEOUT keep their adapter-node meaning.
import { noteOrigin, startOrExit, startSettings } from './server-setup.js';
import { apiFormPostRefusal, isEventStream, originSettings } from './fetch-server.js';

const settings = startOrExit('bun', () => {
	// The adapter reads ORIGIN and the proxy headers itself; a bad one is refused here, at start.
	originSettings(process.env);
	return startSettings(process.env);
});
// The adapter reads its variables when the handler module loads; loading it also runs the app's init
// hook, so the app is built (or the start fails with its message) before a connection is accepted.
Object.assign(process.env, settings.adapterEnv);
const { getHandler } = await import(new URL('../build-bun/handler.js', import.meta.url).href);
const { fetch: handle, websocket } = getHandler();

/** @param {Request} request @param {import('bun').Server} server */
async function fetch(request, server) {
	const refusal = apiFormPostRefusal(request);
	if (refusal) return refusal;
	if (settings.socketProtocolHeader) request.headers.set(settings.socketProtocolHeader, 'http');
	// No idle limit while the app works on the request (a slow page must not be cut off unanswered) …
	server.timeout(request, 0);
	const response = await handle(request, server);
	// … nor ever on an event stream, which the player keeps open between turns; any other answer puts
	// the connection back under IDLE_TIMEOUT for the wait until its next request.
	if (!(response instanceof Response && isEventStream(response))) server.timeout(request, settings.idleTimeoutS);
	return response;
}

const { listen } = settings;
const server = Bun.serve({
	fetch,
	...(websocket ? { websocket } : {}),
	idleTimeout: settings.idleTimeoutS,
	maxRequestBodySize:
		settings.bodySizeLimit !== undefined && Number.isFinite(settings.bodySizeLimit) ? settings.bodySizeLimit : Number.MAX_SAFE_INTEGER,
	...('path' in listen ? { unix: listen.path } : { hostname: listen.host, port: listen.port })
});
console.log(`Listening on ${'path' in listen ? listen.path : `http://${listen.host}:${server.port}`} (Bun ${Bun.version})`);
noteOrigin(settings);

/** Stops taking requests, lets running ones finish for SHUTDOWN_TIMEOUT seconds, then closes the rest. */
let stopping = false;
/** @param {NodeJS.Signals} signal */
async function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	const force = setTimeout(() => void server.stop(true), settings.shutdownTimeoutS * 1000);
	await server.stop(false);
	clearTimeout(force);
	process.emit('sveltekit:shutdown', signal);
	// The app's background work (turn runner, image jobs, schedules) would keep the process alive; an
	// interrupted turn is resumed or marked interrupted by the next start.
	process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

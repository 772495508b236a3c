// @ts-check
// What `KANTERA_ADAPTER=deno npm start` runs under Deno (bin/start.js starts it): the SvelteKit server
// that @deno/svelte-adapter built (.deno-deploy/), served by a Deno.serve of our own. The adapter's
// own server.ts listens where Deno.serve defaults to (port 8000, or DENO_SERVE_ADDRESS) and reads none
// of adapter-node's variables; this one gives what `npm start` gives under Node (bin/server.js):
// - PORT, HOST or SOCKET_PATH say where it listens (3000 on all interfaces by default);
// - the request's origin is ORIGIN, or what PROTOCOL_HEADER/HOST_HEADER/PORT_HEADER say, or else the
//   scheme of the connection (plain http) and the Host header, so forms work at http://localhost:PORT
//   and the scheme never comes from a client; the client's address follows ADDRESS_HEADER/XFF_DEPTH;
// - the app's init hook runs before the first connection is accepted (a bad setting stops the start);
// - a form-typed body sent to /api/ is answered 415 (JSON); bodies are limited by the app alone
//   (KANTERA_MAX_BODY_BYTES, 413), Deno streams them and buffers none;
// - an event stream is never cut for being quiet (Deno.serve has no idle limit on a response);
// - SIGTERM/SIGINT stop taking requests and let open ones finish for SHUTDOWN_TIMEOUT seconds.
/// <reference lib="deno.ns" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { applyConfig, parseConfig } from '@deno/svelte-adapter/__internal';
import { noteOrigin, startOrExit, startSettings } from './server-setup.js';
import { apiFormPostRefusal, clientAddressOf, originSettings, withOrigin } from './fetch-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, '.deno-deploy');

const settings = startOrExit('deno', () => ({ start: startSettings(process.env), origin: originSettings(process.env) }));
/** @type {{ Server: new (manifest: unknown) => import('@sveltejs/kit').Server }} */
const { Server } = await import(new URL('../.deno-deploy/server/index.js', import.meta.url).href);
const { manifest } = await import(new URL('../.deno-deploy/server/manifest.js', import.meta.url).href);
// Static files (the client bundle, prerendered pages) as the adapter describes them.
const routes = parseConfig(JSON.parse(readFileSync(path.join(OUT, 'deploy.json'), 'utf8')), ROOT);
const app = new Server(manifest);
await app.init({
	env: Deno.env.toObject(),
	read: (file) => Deno.openSync(path.join(OUT, 'static', file), { read: true }).readable
});

/**
 * A static file when the adapter's routes name one that exists, else null (SvelteKit answers).
 * @param {URL} url
 */
async function staticFile(url) {
	try {
		return await applyConfig(routes, url, ROOT);
	} catch (err) {
		// A hashed file name that is not (or no longer) in the build: SvelteKit's 404.
		if (err instanceof Deno.errors.NotFound) return null;
		throw err;
	}
}

/** @type {Deno.ServeHandler} */
async function handler(request, info) {
	const refusal = apiFormPostRefusal(request);
	if (refusal) return refusal;
	const url = new URL(request.url);
	if (request.method === 'GET' || request.method === 'HEAD') {
		const file = await staticFile(url);
		if (file) return file;
	}
	const peer = 'hostname' in info.remoteAddr ? info.remoteAddr.hostname : '127.0.0.1';
	return app.respond(withOrigin(request, settings.origin), {
		getClientAddress: () => clientAddressOf(request, peer, settings.origin)
	});
}

const { listen } = settings.start;
const server = Deno.serve(
	{
		...('path' in listen ? { path: listen.path } : { hostname: listen.host, port: listen.port }),
		onListen(addr) {
			console.log(`Listening on ${'path' in addr ? addr.path : `http://${listen.host}:${addr.port}`} (Deno ${Deno.version.deno})`);
			noteOrigin(settings.start);
		}
	},
	handler
);

let stopping = false;
/** @param {Deno.Signal} signal */
async function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	const force = setTimeout(() => Deno.exit(0), settings.start.shutdownTimeoutS * 1000);
	await server.shutdown();
	clearTimeout(force);
	process.emit('sveltekit:shutdown', signal);
	// The app's background work (turn runner, image jobs, schedules) would keep the process alive; an
	// interrupted turn is resumed or marked interrupted by the next start.
	Deno.exit(0);
}
Deno.addSignalListener('SIGTERM', () => void shutdown('SIGTERM'));
Deno.addSignalListener('SIGINT', () => void shutdown('SIGINT'));

// @ts-check
// The Worker of the Cloudflare target (wrangler.jsonc `main` re-exports it; bin/cloudflare-build.js writes that file),
// in front of the one SvelteKit's adapter-cloudflare builds (`sveltekit.js` beside `main`):
// - a play session's requests (`/sessions/<id>…`, `/api/v1/sessions/<id>…`) go to the session's own Durable Object
//   (`PlaySession`, one per session id), which answers them with the same SvelteKit app; everything else is answered
//   here, on whichever isolate took the request;
// - the object keeps the app for its session between requests (its turn runner, image jobs, event streams), which an
//   isolate's requests may not share (workerd cancels what a request started once it ends), and its alarm carries
//   work past the request that started it and past an eviction;
// - a form-typed body sent to /api/ is answered 415 (JSON) before SvelteKit's CSRF check, as by every other server.
// What the app does with the object it is given (`platform.ctx.kantera`) is src/lib/server/isolate/'s business: this
// file only carries requests and the alarm there.
import { DurableObject } from 'cloudflare:workers';
import sveltekit from '../build-cloudflare/sveltekit.js';
import { apiFormPostRefusal } from './fetch-server.js';

/** Session ids as the app makes them (src/lib/server/db/ids.ts); anything else is not routed to an object. */
const SESSION_PATH = /^\/(?:api\/v1\/)?sessions\/([a-z2-7]{20})(?:\/|$)/;
/** The request an alarm or a hand-off is carried in: never cached, never a page (the app answers it in its first hook). */
const TASK_URL = 'http://kantera.internal/';

/** @param {Request} request */
function sessionOf(request) {
	return SESSION_PATH.exec(new URL(request.url).pathname)?.[1];
}

/**
 * What the app reads from `platform.ctx` on this host: `waitUntil` (the platform's), and under `kantera` how to hand
 * a session's work to its object.
 * @param {ExecutionContext} ctx
 * @param {Record<string, unknown>} kantera
 */
function platformCtx(ctx, kantera) {
	return {
		waitUntil: (/** @type {Promise<unknown>} */ p) => ctx.waitUntil(p),
		// A Durable Object's state has no passThroughOnException.
		passThroughOnException: () => ctx.passThroughOnException?.(),
		kantera
	};
}

export default {
	/**
	 * @param {Request} request
	 * @param {{ PLAY_SESSIONS: DurableObjectNamespace<PlaySession> }} env
	 * @param {ExecutionContext} ctx
	 */
	async fetch(request, env, ctx) {
		const refusal = apiFormPostRefusal(request);
		if (refusal) return refusal;
		const sessionId = sessionOf(request);
		if (sessionId) return env.PLAY_SESSIONS.getByName(sessionId).fetch(request);
		return sveltekit.fetch(
			request,
			env,
			platformCtx(ctx, {
				host: 'worker',
				// A session's background work (its opening images, say) runs in its object, not in this request.
				handOff: (/** @type {string} */ id) => env.PLAY_SESSIONS.getByName(id).resume(id)
			})
		);
	}
};

/** One play session: its requests, its background work and its alarm. */
export class PlaySession extends DurableObject {
	/** What the app keeps for this object between requests (the app itself among it); the app owns its contents. */
	slot = {};
	/** @type {string | undefined} */
	sessionId;

	/** @param {Request} request */
	async fetch(request) {
		const sessionId = sessionOf(request);
		if (!sessionId) return new Response('Not Found', { status: 404 });
		await this.remember(sessionId);
		return sveltekit.fetch(request, this.env, this.ctxFor(sessionId, undefined));
	}

	/** Another isolate asks this object to take up its session's work (RPC from the Worker above). */
	async resume(/** @type {string} */ sessionId) {
		await this.remember(sessionId);
		await this.task(sessionId, 'resume');
	}

	async alarm() {
		// Written before the first alarm could be set: an object that never had a request has no alarm.
		const sessionId = this.sessionId ?? (await this.ctx.storage.get('session'));
		if (typeof sessionId !== 'string') return;
		this.sessionId = sessionId;
		await this.task(sessionId, 'alarm');
	}

	/**
	 * @param {string} sessionId
	 * @param {'alarm' | 'resume'} task
	 */
	async task(sessionId, task) {
		const res = await sveltekit.fetch(
			new Request(TASK_URL, { headers: { 'cache-control': 'no-cache' } }),
			this.env,
			this.ctxFor(sessionId, task)
		);
		if (!res.ok) throw new Error(`session ${sessionId}: ${task} answered ${res.status}: ${await res.text()}`);
	}

	/**
	 * @param {string} sessionId
	 * @param {'alarm' | 'resume' | undefined} task
	 */
	ctxFor(sessionId, task) {
		const storage = this.ctx.storage;
		return platformCtx(this.ctx, {
			host: 'session',
			sessionId,
			slot: this.slot,
			task,
			alarm: {
				get: () => storage.getAlarm(),
				set: (/** @type {number} */ at) => storage.setAlarm(at),
				delete: () => storage.deleteAlarm()
			},
			handOff: (/** @type {string} */ id) => this.env.PLAY_SESSIONS.getByName(id).resume(id)
		});
	}

	/** @param {string} sessionId */
	async remember(sessionId) {
		if (this.sessionId === sessionId) return;
		this.sessionId = sessionId;
		await this.ctx.storage.put('session', sessionId);
	}
}

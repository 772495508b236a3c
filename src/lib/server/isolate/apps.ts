/**
 * The app on an isolate host, where a request may share nothing that does I/O with another request
 * (workerd cancels what a request started once that request ends, so a queue or a client shared with
 * a later request hangs it): the Worker builds an app for each request that needs one; a session's
 * object builds one for its session and keeps it between that session's requests. Neither is built at
 * module load (no I/O is allowed there), and a build that failed is built again by the next request.
 *
 * The start-up writes (migrating the control database, the official worlds' rows) run once per isolate:
 * what is remembered across requests is that they ran, a plain flag, not a promise of them.
 */
import { createApp, type App } from '../app';
import { config } from '../config';
import { estimateTokens } from '../context-window';
import { ObjectScheduler, RequestScheduler, type Scheduler } from '../jobs';
import type { HandOff } from './platform';
import { checkIsolateSettings } from './settings';

let startedUp = false;

/**
 * An app for one request or one object. Background upkeep is off (no sweeper, no backup schedule, no
 * resuming every session: an isolate runs only what its requests ask for). Tokens are estimated: the
 * o200k encoder costs about a second of CPU to build in each isolate and its ranks 2.2 MiB of the bundle.
 */
async function buildApp(scheduler: Scheduler): Promise<App> {
	const cfg = config();
	checkIsolateSettings(cfg);
	const first = !startedUp;
	const overrides = { scheduler, background: false, countTokens: estimateTokens };
	try {
		const app = await createApp(cfg, { ...overrides, startUp: first });
		startedUp = true;
		return app;
	} catch (err) {
		// Two first requests at once both ran the start-up writes and this one lost the race: they are done.
		if (first && startedUp) return createApp(cfg, { ...overrides, startUp: false });
		throw err;
	}
}

/** The app of one request on the Worker, built when the request first asks for it; sessions run in their objects. */
export function requestApp(handOff: HandOff): () => Promise<App> {
	let app: Promise<App> | undefined;
	return () => (app ??= buildApp(new RequestScheduler({ handOff })));
}

/** What a session's object keeps between requests. */
export interface SessionObject {
	readonly sessionId: string;
	readonly scheduler: ObjectScheduler;
	/** The object's app, built on first use (again after a failed build). */
	app(): Promise<App>;
	/** Whether the session's leftover work has been looked for since this object started. */
	resumed: boolean;
}

const objects = new WeakMap<object, SessionObject>();

/** The object whose memory is `slot` (one per Durable Object instance, gone when it is evicted). */
export function sessionObject(
	slot: object,
	host: { sessionId: string; setAlarm: (at: number) => Promise<void>; handOff: HandOff }
): SessionObject {
	const known = objects.get(slot);
	if (known) return known;
	const scheduler = new ObjectScheduler({ sessionId: host.sessionId, alarm: { set: host.setAlarm }, handOff: host.handOff });
	let app: Promise<App> | undefined;
	const object: SessionObject = {
		sessionId: host.sessionId,
		scheduler,
		resumed: false,
		app() {
			if (!app) {
				const building = buildApp(scheduler);
				app = building;
				void building.catch(() => {
					if (app === building) app = undefined;
				});
			}
			return app;
		}
	};
	objects.set(slot, object);
	return object;
}

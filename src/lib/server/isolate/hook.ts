/**
 * The first hook on an isolate host: every request runs with the app of where it runs (its own on the
 * Worker, its session object's in the object, see apps.ts), and the object's own tasks (its alarm, a
 * hand-off from another isolate) are done here instead of answered as pages. On a server it does nothing.
 */
import type { Handle } from '@sveltejs/kit';
import { withAppOf } from '../app';
import { requestApp, sessionObject, type SessionObject } from './apps';
import { isolateHostOf } from './platform';

export const handleIsolate: Handle = ({ event, resolve }) => {
	const host = isolateHostOf(event.platform);
	if (!host) return resolve(event);
	if (host.host === 'worker') return withAppOf(requestApp(host.handOff), () => resolve(event));
	const object = sessionObject(host.slot, host);
	return withAppOf(
		() => object.app(),
		async () => {
			await resumeOnce(object, host.task !== undefined);
			if (host.task === 'alarm') await object.scheduler.onAlarm();
			if (host.task) return new Response(null, { status: 204 });
			return resolve(event);
		}
	);
};

/**
 * Looks for the session's leftover work (a turn a previous object was running, a queued turn, an image
 * job due) the first time the object is used, and whenever it is handed the session or woken by its alarm.
 */
async function resumeOnce(object: SessionObject, again: boolean): Promise<void> {
	if (object.resumed && !again) return;
	const app = await object.app();
	object.resumed = true;
	app.resumeSession(object.sessionId);
}

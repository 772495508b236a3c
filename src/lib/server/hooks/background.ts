/**
 * Runs each request inside the scope that carries the platform's `waitUntil` (isolate hosts give one
 * through `event.platform`), so background work the request starts is kept alive past its response,
 * and lets the scheduler run what has come due (on an isolate host, nothing else would).
 */
import type { Handle } from '@sveltejs/kit';
import { getApp } from '../app';
import { inRequest, waitUntilOf } from '../jobs';

export const handleBackground: Handle = ({ event, resolve }) =>
	inRequest(waitUntilOf(event.platform), async () => {
		(await getApp()).scheduler.tick();
		return resolve(event);
	});

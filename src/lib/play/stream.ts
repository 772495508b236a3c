/**
 * The browser end of the session's event stream. EventSource reconnects by itself and sends
 * Last-Event-ID, so after a dropped connection the server resumes exactly after the last event
 * this page saw; the first connection resumes after the page's own data (`?lastEventId=`).
 */
import { parseSessionEvent, SESSION_EVENT_TYPES } from '../types/events';
import { parsePresence, PRESENCE_EVENT } from '../types/presence';
import type { PlayState } from './play.svelte';

/** Opens the stream for `play`; returns the function that closes it. */
export function connectEvents(play: PlayState): () => void {
	const source = new EventSource(play.eventsUrl());
	play.connection = 'connecting';
	const onEvent = (e: MessageEvent<unknown>) => {
		const id = Number(e.lastEventId);
		const event = typeof e.data === 'string' ? parseSessionEvent(e.data) : null;
		if (!Number.isInteger(id) || event === null) {
			console.warn(`[kantera] ignored a malformed ${e.type} event`);
			return;
		}
		void play.receive(id, event);
	};
	for (const type of SESSION_EVENT_TYPES) source.addEventListener(type, onEvent);
	// Presence frames carry no id (they are not in the log): they set who is here and typing, nothing else.
	source.addEventListener(PRESENCE_EVENT, (e: MessageEvent<unknown>) => {
		const presence = typeof e.data === 'string' ? parsePresence(e.data) : null;
		if (presence) play.presence = presence;
	});
	source.onopen = () => {
		play.connection = 'open';
	};
	source.onerror = () => {
		// CLOSED means the server refused (signed out, session deleted): EventSource will not retry.
		play.connection = source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting';
	};
	return () => {
		source.close();
		play.connection = 'closed';
	};
}

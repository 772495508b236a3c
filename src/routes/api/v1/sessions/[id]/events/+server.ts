import { apiEndpoint, IdString, parseWith, sessionFor } from '$lib/server/api';
import { openEventStream } from '$lib/server/events';
import { bindToRequest } from '$lib/server/jobs';
import { PlaySessionNotFoundError } from '$lib/server/sessions';
import type { RequestHandler } from './$types';

/**
 * The session's events as server-sent events. Resume with the `Last-Event-ID` header (EventSource
 * sends it by itself on reconnect), or `?lastEventId=` for the first connection; the header wins,
 * since it is the newer of the two on a reconnect. Without either, only new events are sent.
 */
export const GET = apiEndpoint(async ({ app, user, params, request, url, language }) => {
	const { session } = await sessionFor(app, user, params.id, 'member');
	const raw = request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
	const after = raw === null || raw.trim() === '' ? undefined : parseWith(IdString, raw.trim(), 'INVALID_LAST_EVENT_ID');
	// Someone is watching: work left over from a restart resumes now rather than at the next turn —
	// accepted turns run, a turn whose runner died is marked interrupted, image jobs continue.
	app.resumeSession(session.id);
	return openEventStream({
		feeds: app.feeds,
		sessionId: session.id,
		after,
		// Other members' whispers reach this stream emptied, in replays too.
		reader: { id: user.id, language },
		signal: request.signal,
		keepAliveMs: app.config.sseKeepAliveMs,
		// On an isolate host, a watched session's work resumes from its streams' polls (work that an
		// instance dropped mid-way left behind), under this stream's request: the session's feed polls
		// for all its streams from one timer. A server process's timers need no help.
		onPoll: bindToRequest(() => app.scheduler.visit(session.id)),
		// Checked above for this request; the session's feed checks again now and then, once for all of
		// this user's streams of the session (a member removed loses them at once: the bus's `accessChanged`).
		access: {
			key: user.id,
			check: async () => {
				try {
					await sessionFor(app, user, session.id, 'member');
					return true;
				} catch (err) {
					if (err instanceof PlaySessionNotFoundError) return false;
					throw err;
				}
			}
		}
	});
}) satisfies RequestHandler;

/**
 * Server-sent events from a session's event log, hand-written (no SSE library).
 *
 * Each logged event goes out as `id: <log id>`, `event: <type>`, `data: <json>`. A client resumes
 * with `Last-Event-ID` and gets the rows after it, in id order, each exactly once: the log is the
 * only source, and the stream's own cursor only moves past rows already sent. New rows come from the
 * session's feed (`feed.ts`: one reader per session and process, woken by the bus or its slow poll);
 * a stream further back than the feed's recent rows reads its own backlog. Keep-alive comments stop
 * proxies from closing a quiet stream; disconnecting (the client walks away, or the request aborts)
 * leaves the feed and stops the keep-alives.
 */
import { lastEventId, readLogAfter, type LogPage } from './log';
import { SSE_BATCH, warnStreamStopped, type EventFeeds, type FeedMember, type StreamAccess } from './feed';
import type { LoggedEvent } from '../../types/events';
import { observeEventStream } from '../ops';
import { whisperView, type EventView, type Reader } from './whispers';
import { PRESENCE_EVENT, type Presence } from '../../types/presence';

/** The issue caps a quiet stream's silence at 8 s; half a second spare for timer drift and a busy loop. */
export const SSE_KEEPALIVE_MS = 7_500;
/** The reconnection delay advised to EventSource clients. */
const SSE_RETRY_MS = 2_000;

const SSE_HEADERS = {
	'content-type': 'text/event-stream',
	'cache-control': 'no-store',
	// nginx would otherwise buffer the stream and deliver text deltas in lumps.
	'x-accel-buffering': 'no'
} as const;

export interface EventStreamOptions {
	feeds: Pick<EventFeeds, 'join' | 'deps'>;
	sessionId: string;
	/** Send the events after this id; undefined starts at the end of the log (only new events). */
	after: number | undefined;
	/** Who watches, re-checked by the feed on its slower cadence (checked by the caller at open); none: never re-checked. */
	access?: StreamAccess;
	/**
	 * The member watching: other members' whispers reach them emptied (`whispers.ts`). Undefined sees every event as
	 * logged (the harness's own readers).
	 */
	reader?: Reader;
	/** The request's signal: aborting it ends the stream. */
	signal?: AbortSignal;
	/** Keep-alive comments every this many ms (SSE_KEEPALIVE_MS when unset); 0 sends none. */
	keepAliveMs?: number;
	/** Called at each poll of the session's feed while the stream is open, from the feed's timer. */
	onPoll?: () => void;
}

/** A presence frame: no `id:`, so it never moves the client's Last-Event-ID and is never replayed. */
function formatPresence(p: Presence): string {
	return `event: ${PRESENCE_EVENT}\ndata: ${JSON.stringify(p)}\n\n`;
}

function formatEvent(e: LoggedEvent): string {
	// JSON.stringify escapes CR and LF, so the data is one line and can't break the framing.
	return `id: ${e.id}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event)}\n\n`;
}

export async function openEventStream(opts: EventStreamOptions): Promise<Response> {
	const { feeds, sessionId, signal } = opts;
	const { sessions } = feeds.deps;
	const end = await sessions.use(sessionId, (s) => lastEventId(s.db));
	// An id from the future (another database, a restored backup) would skip real events: clamp it.
	let cursor = opts.after === undefined ? end : Math.min(opts.after, end);
	const reader = opts.reader;
	// Read after `end`: a whisper accepted since is either in this look-up or among the rows the stream reads.
	const view: EventView = reader === undefined ? (e) => e : await sessions.use(sessionId, (s) => whisperView(s.db, reader, cursor));
	const encoder = new TextEncoder();

	let closed = false;
	// Read through a call after an await: cleanup() may have run meanwhile, which narrowing cannot see.
	const isClosed = (): boolean => closed;
	let wake: (() => void) | undefined;
	const rouse = () => {
		const w = wake;
		wake = undefined;
		w?.();
	};
	let keepAlive: ReturnType<typeof setInterval> | undefined;
	let onAbort: (() => void) | undefined;
	let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
	const unobserve = observeEventStream();

	const cleanup = () => {
		if (closed) return;
		closed = true;
		unobserve();
		feed.leave();
		clearInterval(keepAlive);
		if (onAbort) signal?.removeEventListener('abort', onAbort);
		rouse();
	};
	const finish = () => {
		cleanup();
		try {
			controller?.close();
		} catch {
			// already closed or cancelled by the consumer
		}
	};

	const member: FeedMember = {
		get cursor() {
			return cursor;
		},
		...(opts.access ? { access: opts.access } : {}),
		...(opts.onPoll ? { poll: opts.onPoll } : {}),
		wake: rouse,
		end: finish,
		say: (presence) => {
			if (!closed) controller?.enqueue(encoder.encode(formatPresence(presence)));
		}
	};
	const feed = feeds.join(sessionId, member, end);

	/** The rows after the cursor: from the feed, or from the log when the stream is further back than the feed's rows. */
	const nextPage = async (): Promise<LogPage | 'wait' | 'failed'> => {
		const step = feed.next(cursor, SSE_BATCH);
		if (step !== 'behind') return step;
		const floor = feed.floor;
		try {
			const page = await sessions.use(sessionId, (s) => readLogAfter(s.db, cursor, SSE_BATCH));
			// Nothing after the cursor at all: the rows up to the feed's floor were pruned meanwhile.
			return page.last === cursor ? { ...page, last: Math.max(cursor, floor) } : page;
		} catch (err) {
			// The client reconnects with its Last-Event-ID and misses nothing.
			warnStreamStopped(sessionId, err);
			return 'failed';
		}
	};

	const stream = new ReadableStream<Uint8Array>({
		start(c) {
			controller = c;
			const send = (text: string) => {
				if (!closed) c.enqueue(encoder.encode(text));
			};
			// The bare `id:` sets the client's Last-Event-ID without dispatching an event, so even a client
			// that connected without one resumes from here if the connection drops before the first event.
			send(`retry: ${SSE_RETRY_MS}\nid: ${cursor}\n\n`);
			send(formatPresence(feed.presence()));
			const keepAliveMs = opts.keepAliveMs ?? SSE_KEEPALIVE_MS;
			if (keepAliveMs > 0) keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
			onAbort = finish;
			if (signal?.aborted) onAbort();
			else signal?.addEventListener('abort', onAbort, { once: true });
		},
		// Called when the consumer wants more: waits for new rows, sends one batch, returns. A slow client
		// therefore holds its cursor back instead of piling the log up in memory.
		async pull(c) {
			while (!isClosed()) {
				const page = await nextPage();
				if (isClosed()) return;
				if (page === 'failed') {
					finish();
					return;
				}
				if (page === 'wait') {
					await new Promise<void>((resolve) => (wake = resolve));
					continue;
				}
				for (const e of page.events) {
					const shown = view(e);
					if (shown) c.enqueue(encoder.encode(formatEvent(shown)));
				}
				cursor = Math.max(cursor, page.last);
				if (page.events.length > 0) return;
			}
		},
		cancel() {
			cleanup();
		}
	});
	return new Response(stream, { headers: SSE_HEADERS });
}

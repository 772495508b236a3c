/**
 * Server-sent events from a session's event log, hand-written (no SSE library).
 *
 * Each logged event goes out as `id: <log id>`, `event: <type>`, `data: <json>`. A client resumes
 * with `Last-Event-ID` and gets the rows after it, in id order, each exactly once: the log is the
 * only source, and the cursor only moves past rows already sent. New rows are found when the bus
 * wakes the stream (writes in this process) or on a slow poll (writes by another process).
 * Keep-alive comments stop proxies from closing a quiet stream; disconnecting (the client walks
 * away, or the request aborts) drops the bus subscription and both timers.
 */
import { lastEventId, readEventsAfter, type EventBus } from '../turn';
import type { SessionDbPool } from '../db';
import type { LoggedEvent } from '../../types/events';
import { observeEventStream } from '../ops';

/** The issue caps a quiet stream's silence at 8 s; half a second spare for timer drift and a busy loop. */
export const SSE_KEEPALIVE_MS = 7_500;
/** How often a stream looks for events written by another process (this process's writes wake it at once). */
const SSE_POLL_MS = 1_000;
/** The reconnection delay advised to EventSource clients. */
const SSE_RETRY_MS = 2_000;
/** Log rows read per query; a client far behind catches up in batches, with backpressure between them. */
export const SSE_BATCH = 200;

const PARAMS_MARKER = /\bparams:/;

const SSE_HEADERS = {
	'content-type': 'text/event-stream',
	'cache-control': 'no-store',
	// nginx would otherwise buffer the stream and deliver text deltas in lumps.
	'x-accel-buffering': 'no'
} as const;

export interface EventStreamOptions {
	sessions: Pick<SessionDbPool, 'use'>;
	bus: Pick<EventBus, 'subscribe'>;
	sessionId: string;
	/** Send the events after this id; undefined starts at the end of the log (only new events). */
	after: number | undefined;
	/** Checked before each read; false ends the stream (the session was deleted). */
	stillExists?: () => Promise<boolean>;
	/** The request's signal: aborting it ends the stream. */
	signal?: AbortSignal;
	/** Keep-alive comments every this many ms (SSE_KEEPALIVE_MS when unset); 0 sends none. */
	keepAliveMs?: number;
	pollMs?: number;
	/** Called at each poll, while the stream is open. */
	onPoll?: () => void;
}

function formatEvent(e: LoggedEvent): string {
	// JSON.stringify escapes CR and LF, so the data is one line and can't break the framing.
	return `id: ${e.id}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event)}\n\n`;
}

export async function openEventStream(opts: EventStreamOptions): Promise<Response> {
	const { sessions, bus, sessionId, signal } = opts;
	const end = await sessions.use(sessionId, (s) => lastEventId(s.db));
	// An id from the future (another database, a restored backup) would skip real events: clamp it.
	let cursor = opts.after === undefined ? end : Math.min(opts.after, end);
	const encoder = new TextEncoder();

	let closed = false;
	// Read through a call after an await: cleanup() may have run meanwhile, which narrowing cannot see.
	const isClosed = (): boolean => closed;
	let dirty = true;
	let wake: (() => void) | undefined;
	const poke = () => {
		dirty = true;
		wake?.();
		wake = undefined;
	};
	let unsubscribe: (() => void) | undefined;
	let poll: ReturnType<typeof setInterval> | undefined;
	let keepAlive: ReturnType<typeof setInterval> | undefined;
	let onAbort: (() => void) | undefined;
	let unobserve: (() => void) | undefined;

	const cleanup = () => {
		if (closed) return;
		closed = true;
		unobserve?.();
		unsubscribe?.();
		clearInterval(poll);
		clearInterval(keepAlive);
		if (onAbort) signal?.removeEventListener('abort', onAbort);
		poke();
	};

	const read = async (): Promise<LoggedEvent[] | 'gone'> => {
		if (opts.stillExists && !(await opts.stillExists())) return 'gone';
		return sessions.use(sessionId, (s) => readEventsAfter(s.db, cursor, SSE_BATCH));
	};

	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			const send = (text: string) => {
				if (!closed) controller.enqueue(encoder.encode(text));
			};
			// The bare `id:` sets the client's Last-Event-ID without dispatching an event, so even a client
			// that connected without one resumes from here if the connection drops before the first event.
			send(`retry: ${SSE_RETRY_MS}\nid: ${cursor}\n\n`);
			unobserve = observeEventStream();
			unsubscribe = bus.subscribe(sessionId, poke);
			poll = setInterval(() => {
				opts.onPoll?.();
				poke();
			}, opts.pollMs ?? SSE_POLL_MS);
			const keepAliveMs = opts.keepAliveMs ?? SSE_KEEPALIVE_MS;
			if (keepAliveMs > 0) keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
			onAbort = () => {
				cleanup();
				try {
					controller.close();
				} catch {
					// already closed or cancelled by the consumer
				}
			};
			if (signal?.aborted) onAbort();
			else signal?.addEventListener('abort', onAbort, { once: true });
		},
		// Called when the consumer wants more: waits for new rows, sends one batch, returns. A slow client
		// therefore holds the cursor back instead of piling the log up in memory.
		async pull(controller) {
			while (!closed) {
				if (!dirty) await new Promise<void>((resolve) => (wake = resolve));
				if (isClosed()) return;
				dirty = false;
				let batch: LoggedEvent[] | 'gone';
				try {
					batch = await read();
				} catch (err) {
					// The client reconnects with its Last-Event-ID and misses nothing. Driver messages end with the
					// query's bound parameters, which stay out of the log.
					const reason = err instanceof Error ? (err.message.split(PARAMS_MARKER)[0] ?? '').trim() : String(err);
					console.warn(`[kantera] event stream of session ${sessionId} stopped: ${reason}`);
					batch = 'gone';
				}
				if (isClosed()) return;
				if (batch === 'gone') {
					cleanup();
					controller.close();
					return;
				}
				if (batch.length === 0) continue;
				for (const e of batch) {
					controller.enqueue(encoder.encode(formatEvent(e)));
					cursor = e.id;
				}
				// A full batch means more may be waiting: read again without waiting for a wake-up.
				if (batch.length === SSE_BATCH) dirty = true;
				return;
			}
		},
		cancel() {
			cleanup();
		}
	});
	return new Response(stream, { headers: SSE_HEADERS });
}

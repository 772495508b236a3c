/**
 * The session's event log: every event a client may need is a row of the session database's `events`
 * table whose id is the SSE id (`log.ts`); the bus wakes this process's readers when it grows
 * (`bus.ts`); one feed per session reads it for all of the session's open streams (`feed.ts`);
 * finished turns' streaming events are pruned (`prune.ts`); the SSE writer sends each stream the rows
 * after its client's Last-Event-ID (`sse.ts`).
 */
export {
	appendEvent,
	appendEventsQuery,
	appendEventIfQuery,
	appendTurnEventsQuery,
	readEventsAfter,
	readLogAfter,
	lastEventId,
	streamedThrough,
	type LogPage
} from './log';
export { EventBus, type BusSignal } from './bus';
export { EventFeeds, SSE_BATCH, SSE_POLL_MS, SSE_ACCESS_CHECK_MS, type FeedTiming, type StreamAccess } from './feed';
export {
	pruneStreamingEvents,
	pruneStreamingEventsQuery,
	dropStreamingEventsQuery,
	DELTA_RETENTION_MS,
	PRUNE_EVERY_COMMITS
} from './prune';
export { openEventStream, SSE_KEEPALIVE_MS, type EventStreamOptions } from './sse';
export { whisperedLine, whisperView, type EventView, type Reader } from './whispers';

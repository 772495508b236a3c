/**
 * The session's event log: every event a client may need is a row of the session database's `events`
 * table whose id is the SSE id (`log.ts`); the bus wakes this process's streams when it grows
 * (`bus.ts`); finished turns' streaming events are pruned (`prune.ts`); the SSE writer sends the rows
 * after a client's Last-Event-ID (`sse.ts`).
 */
export { appendEvent, appendEventsQuery, readEventsAfter, lastEventId } from './log';
export { EventBus } from './bus';
export { pruneStreamingEvents, pruneStreamingEventsQuery, DELTA_RETENTION_MS, PRUNE_EVERY_COMMITS } from './prune';
export { openEventStream, SSE_KEEPALIVE_MS, SSE_BATCH, type EventStreamOptions } from './sse';

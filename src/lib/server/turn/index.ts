/**
 * Turns as transactions: accepted at once under an idempotency key, run in the background under a
 * lease, streamed through the session's event log, committed whole or not at all.
 */
export { acceptTurn, IdempotencyKeySchema, type AcceptInput, type AcceptedTurn, type AcceptDeps } from './accept';
export { TurnRunner, EMBED_BATCHES_PER_TURN, type RunnerDeps } from './runner';
export { executeTurn, MAX_OUTPUT_TOKENS, type EngineDeps, type TurnOutcome } from './engine';
export { Staging } from './staging';
export { EventBus, appendEvent, readEventsAfter, lastEventId, pruneStreamingEvents, DELTA_RETENTION_MS, PRUNE_EVERY_COMMITS } from './events';
export { LEASE_MS, LEASE_RENEW_MS, interruptExpired, type TurnRow } from './leases';
export { composeMission, ensureMission, readMission, GM_RULES } from './mission';
export { readSettings, writeSettings, type SessionSettings } from './settings';
export { TurnError, QuotaExceededError, TurnCancelledError } from './errors';
export { historySinceCheckpoint, loadHead } from './history';
export { switchModel, type ModelChoice, type SwitchResult } from './handoff';

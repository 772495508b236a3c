/**
 * Turns as transactions: accepted at once under an idempotency key, run in the background under a
 * lease, streamed through the session's event log (`../events`), committed whole or not at all.
 */
export { acceptTurn, acceptedBefore, IdempotencyKeySchema, type AcceptInput, type AcceptedTurn, type AcceptDeps } from './accept';
export { TurnRunner, EMBED_BATCHES_PER_TURN, LEASE_SWEEP_MARGIN_MS, type RunnerDeps } from './runner';
export { executeTurn, MAX_OUTPUT_TOKENS, RESERVATION_GRACE_MS, type EngineDeps, type TurnOutcome } from './engine';
export { Staging } from './staging';
export { LEASE_MS, LEASE_RENEW_MS, DEFAULT_LEASE, interruptExpired, readTurn, type LeaseTiming } from './leases';
export {
	activeTurn,
	committedPlayerTurns,
	committedSince,
	deleteTurnsQuery,
	finishedBeforeQuery,
	lastCommittedPlayerTurnId,
	lastPlayerTurn,
	lastSeq,
	playerTurnById,
	queuedLinesQuery as queuedLines,
	turnById,
	turnInput,
	turnKindOf,
	turnsFrom,
	turnUserId,
	turnsWaiting,
	unfinishedTurnIds,
	whispersAmong,
	WHISPER_TURN_IDS_SQL,
	type TurnKind,
	type TurnRow,
	type Whisper
} from './turns';
export { gmLine, hiddenFrom } from './whisper';
export { markWork, markWorkIfTaken, clearWork, sessionsWithWork, hasOldNote, ACCEPT_WINDOW_MS } from './work';
export { classifyFailure, failureMessage, logDetail, TurnDeadlineError, ERROR_ID_LENGTH, MAX_LOGGED_DETAIL_CHARS } from './failure';
export { TurnError, QuotaExceededError, TurnCancelledError } from './errors';
export { historySinceCheckpoint, loadHead } from './history';
export { contextProblems, MIN_TURN_ROOM_TOKENS } from './context-check';
export { switchModel, dropPendingModelQuery, type ModelChoice, type SwitchResult } from './handoff';

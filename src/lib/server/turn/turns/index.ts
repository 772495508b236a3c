/**
 * The `turns` table's one repository: every read and write of a turn row goes through here, so the
 * row's shape, its states and the indexes its queries rely on are kept in one place: the row and its
 * inserts (`rows.ts`), the reads (`reads.ts`) and the changes of status (`status.ts`). Functions that
 * end in `Query` return an unrun statement for a batch (`db.batch` or a write batch `SessionDb.writes`:
 * one round trip with whatever else it carries); those that end in `Sql` or `EXPR` return SQL for a
 * statement another module builds; the others run their query.
 */
export {
	newTurnRow,
	insertTurn,
	insertAcceptedIfFreeQuery,
	turnExistsSql,
	type NewTurn,
	type TurnKind,
	type TurnRow,
	type Whisper
} from './rows';
export {
	acceptedQuery,
	activeTurn,
	anyCommitted,
	anyPlayedQuery,
	anyRunning,
	anyUnfinishedQuery,
	byKeyQuery,
	committedPlayerTurns,
	committedSince,
	exchangeQueries,
	finishedBeforeQuery,
	lastCommittedPlayerTurnId,
	lastPlayerTurn,
	lastSeq,
	LAST_SEQ_EXPR,
	nextExpiryQuery,
	playerTurnById,
	turnById,
	turnInput,
	turnKindOf,
	turnsFrom,
	turnsWaiting,
	turnUserId,
	unfinishedTurnIds,
	whispersAmong,
	WHISPER_TURN_IDS_SQL
} from './reads';
export {
	cancelAccepted,
	claimOldestQuery,
	deleteTurnsQuery,
	expiredLeaseTurnsSql,
	finishUncommitted,
	flagCancel,
	foldQueued,
	justClaimedTurnSql,
	queuedLinesQuery,
	markCommitted,
	markCommittedQuery,
	markInterrupted,
	markInterruptedQuery,
	renewLease,
	type Committed
} from './status';

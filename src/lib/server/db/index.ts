export { openControlDb, type ControlDb, type ControlDrizzle } from './control';
export {
	SessionDbPool,
	SessionDbMissingError,
	writeAll,
	type SessionDb,
	type SessionDrizzle,
	type SessionTx,
	type SessionExec,
	type SessionWrites,
	type TxBatch
} from './session';
export { sessionDbUrl, InvalidSessionIdError, TemplatePlacement, type SessionPlacement, type SessionDbLocation } from './placement';
export { openClient, isFileUrl } from './client';
export { newId, isSessionId } from './ids';
export { sqlText } from './text';
export { toStatement, type BuiltQuery, type PlannedWrite, type StagedWrite } from './statement';
export {
	migrate,
	migrateAndRead,
	MigrationError,
	MissingDatabaseError,
	type Migration,
	type MigrateOptions,
	type Migrated
} from './migrate';
export * as controlSchema from './control-schema';
export * as sessionSchema from './session-schema';
export * as undoLog from './undo-log';
export * as meta from './meta';
export { copyDatabase } from './copy';
export { controlMigrations, sessionMigrations } from './migrations.generated';
export { TursoPlacement, startSweeper } from './turso';
export { guardStatement, isConstraintAbort, REVISION_EXPR } from './record-revision';
export { sessionImageKeys, coverImages } from './image-references';

export { openControlDb, type ControlDb, type ControlDrizzle } from './control';
export { SessionDbPool, type SessionDb, type SessionDrizzle, type SessionTx, type SessionExec } from './session';
export { sessionDbUrl, InvalidSessionIdError, TemplatePlacement, type SessionPlacement, type SessionDbLocation } from './placement';
export { openClient, isFileUrl } from './client';
export { newId, isSessionId, SESSION_ID_PATTERN } from './ids';
export { migrate, MigrationError, type Migration } from './migrate';
export * as controlSchema from './control-schema';
export * as sessionSchema from './session-schema';
export * as undoLog from './undo-log';

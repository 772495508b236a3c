/** Turso databases per session: the Platform API client and the placement that uses it. */

export { TursoPlacement, SessionDatabaseError, ORPHAN_AFTER_MS, startSweeper } from './placement';

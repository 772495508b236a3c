/** Turso databases per session: the Platform API client and the placement that uses it. */
export { TursoPlatformApi, TursoApiError, TURSO_API_TIMEOUT_MS, type TursoDatabase } from './api';
export {
	TursoPlacement,
	SessionDatabaseError,
	DEFAULT_RETRY,
	ORPHAN_AFTER_MS,
	SWEEP_INTERVAL_MS,
	startSweeper,
	type RetryPolicy,
	type SweepReport,
	type OrphanReport,
	type TursoPlacementDeps
} from './placement';

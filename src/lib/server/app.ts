/**
 * Process-wide resources: configuration, the control database and the session database pool.
 * Created once on first use and shared by the app, the CLI and tests (which build their own with
 * `createApp`). These are resources, not request state.
 */
import { config as readConfig, type Config } from './config';
import { openControlDb, SessionDbPool, type ControlDb } from './db';

export interface App {
	config: Config;
	control: ControlDb;
	sessions: SessionDbPool;
	close(): Promise<void>;
}

export async function createApp(cfg: Config): Promise<App> {
	const control = await openControlDb(cfg);
	const sessions = new SessionDbPool(cfg);
	return {
		config: cfg,
		control,
		sessions,
		async close() {
			await sessions.closeAll();
			control.close();
		}
	};
}

let app: Promise<App> | undefined;

/** The app of this process, built from the environment on first use. */
export function getApp(): Promise<App> {
	app ??= createApp(readConfig());
	return app;
}

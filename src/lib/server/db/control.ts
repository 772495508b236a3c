/** The control database: opened once per process (per request or session object on an isolate host), migrated on open. */
// drizzle's web entry wraps whichever client it is given; its default entry would load the native driver (client.ts).
import { drizzle } from 'drizzle-orm/libsql/web';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { Client } from '@libsql/client';
import * as controlSchema from './control-schema';
import { controlMigrations } from './migrations.generated';
import { migrate } from './migrate';
import { openClient } from './client';
import type { Config } from '../config';

export type ControlDrizzle = LibSQLDatabase<typeof controlSchema>;

export interface ControlDb {
	client: Client;
	db: ControlDrizzle;
	close(): void;
}

/** `migrate: false` when the caller knows it is migrated already (an isolate host migrates once per isolate). */
export async function openControlDb(cfg: Pick<Config, 'controlDb'>, opts: { migrate?: boolean } = {}): Promise<ControlDb> {
	const client = await openClient(cfg.controlDb.url, cfg.controlDb.authToken, 8);
	if (opts.migrate !== false) await migrate(client, controlMigrations);
	const db = drizzle(client, { schema: controlSchema });
	return { client, db, close: () => client.close() };
}

/** The control database: opened once per process, migrated on open. */
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
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

export async function openControlDb(cfg: Pick<Config, 'controlDb'>): Promise<ControlDb> {
	const client = await openClient(cfg.controlDb.url, cfg.controlDb.authToken, 8);
	await migrate(client, controlMigrations);
	const db = drizzle(client, { schema: controlSchema });
	return { client, db, close: () => client.close() };
}

/** Test-data factories: real libSQL databases (files in a fresh temp dir, or the Hrana test server in the remote project), never mocks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../src/lib/server/config';
import { createApp, type App } from '../../src/lib/server/app';
import { newId } from '../../src/lib/server/db';
import { databaseEnv } from './databases';

export interface TestEnv {
	dir: string;
	config: Config;
	app: App;
	/** A fresh session id, its database created (and migrated). */
	sessionId(): Promise<string>;
	cleanup: () => Promise<void>;
}

export function tempDir(prefix = 'kantera-test-'): { dir: string; remove: () => void } {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function testEnv(env: Record<string, string> = {}): Promise<TestEnv> {
	const { dir, remove } = tempDir();
	const config = parseConfig({ ...databaseEnv(dir), ...env });
	const app = await createApp(config);
	return {
		dir,
		config,
		app,
		async sessionId() {
			const id = newId();
			await app.sessions.create(id);
			return id;
		},
		async cleanup() {
			await app.close();
			remove();
		}
	};
}

/** Test-data factories: real libSQL files in a fresh temp dir per test, never mocks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../src/lib/server/config';
import { createApp, type App } from '../../src/lib/server/app';
import { newId } from '../../src/lib/server/db';

export interface TestEnv {
	dir: string;
	config: Config;
	app: App;
	/** A fresh session id whose database will be created on first use. */
	sessionId(): string;
	cleanup(): Promise<void>;
}

export function tempDir(prefix = 'kantera-test-'): { dir: string; remove(): void } {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function testEnv(env: Record<string, string> = {}): Promise<TestEnv> {
	const { dir, remove } = tempDir();
	const config = parseConfig({ KANTERA_DATA_DIR: dir, ...env });
	const app = await createApp(config);
	return {
		dir,
		config,
		app,
		sessionId: () => newId(),
		async cleanup() {
			await app.close();
			remove();
		}
	};
}

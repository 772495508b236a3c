/** A per-test app fixture for vitest files (apart from env.ts, which benches import outside vitest). */
import { afterEach, beforeEach } from 'vitest';
import type { SessionDb } from '../../src/lib/server/db';
import { testEnv, type TestEnv } from './env';

/**
 * For a test file whose tests each want an app of their own: registers the hooks that build one on
 * fresh databases before each test and remove it after, and returns `use`, which runs `fn` on a new
 * session of the current test's app.
 */
export function freshSessionPerTest(env: Record<string, string> = {}): <T>(fn: (s: SessionDb) => Promise<T>) => Promise<T> {
	let current: TestEnv | undefined;
	beforeEach(async () => {
		current = await testEnv(env);
	});
	afterEach(async () => {
		await current?.cleanup();
		current = undefined;
	});
	return async (fn) => {
		if (!current) throw new Error('freshSessionPerTest: use() runs only inside a test');
		return current.app.sessions.use(await current.sessionId(), fn);
	};
}

/**
 * The budget tests' set-up: `apps` apps on one data directory (so they share the control database, as
 * processes of one server would), one price table, budget limits from the environment, one mock LLM.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMockLlm, type MockLlm } from '../mock-llm';
import type { RecordedRequest, ScriptedReply } from '../mock-llm/types';
import { mockLlmApp, type MockLlmApp } from './turns';
import { tempDir } from './env';

export interface BudgetApps {
	dir: string;
	mock: MockLlm;
	/** The environment every app was built with (prices file, no free turns, the limits). */
	env: Record<string, string>;
	apps: MockLlmApp[];
}

export async function budgetApps(options: {
	prices: Record<string, { input: number; output: number }>;
	limitEnv: Record<string, string>;
	apps: number;
	handler: (r: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
	/** Where each cleanup goes, run by the test file's afterEach. */
	cleanups: (() => Promise<void> | void)[];
}): Promise<BudgetApps> {
	const { cleanups } = options;
	const mock = await startMockLlm({ handler: options.handler });
	cleanups.push(() => mock.close());
	const { dir, remove } = tempDir();
	cleanups.push(remove);
	const pricesFile = path.join(dir, 'prices.json');
	writeFileSync(pricesFile, JSON.stringify(options.prices));
	const env = { KANTERA_PRICES_FILE: pricesFile, KANTERA_FREE_TURNS_PER_DAY: '0', ...options.limitEnv };
	const apps: MockLlmApp[] = [];
	for (let i = 0; i < options.apps; i++) {
		const app = await mockLlmApp('openai', env, { dataDir: dir, mock });
		cleanups.push(() => app.cleanup());
		apps.push(app);
	}
	return { dir, mock, env, apps };
}

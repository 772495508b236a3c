/**
 * Starts tests/helpers/turn-process.ts (a Kantera app in a process of its own) on a data directory and
 * the mock LLM, and reads its lines: the turn ids once its turns have left the queue, and how it ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import path from 'node:path';
import * as v from 'valibot';
import type { MockLlm } from '../mock-llm';

const TURN_PROCESS = path.resolve(import.meta.dirname, 'turn-process.ts');

const Line = v.variant('event', [
	v.object({ event: v.literal('running'), turnIds: v.array(v.string()) }),
	v.object({ event: v.literal('idle') })
]);

export interface TurnProcess {
	child: ChildProcess;
	/** Its turn ids, once every turn has left the queue; rejects if the process ends before that. */
	running: Promise<string[]>;
	/** Every line it printed so far, in order. */
	readonly events: v.InferOutput<typeof Line>[];
	/** Resolves with the exit code (null when a signal ended it). */
	exited: Promise<number | null>;
	/** SIGKILL, as a crash or a host dropping an instance: nothing of it gets to clean up. Resolves once it is gone. */
	kill(): Promise<void>;
}

export function spawnTurnProcess(opts: {
	dataDir: string;
	mock: MockLlm;
	userId: string;
	sessionIds: string[];
	/** More of the app's environment (KANTERA_SCHEDULER, budgets…). */
	env?: Record<string, string>;
}): TurnProcess {
	const child = spawn(process.execPath, ['--import', 'tsx', TURN_PROCESS, opts.userId, ...opts.sessionIds], {
		env: {
			...process.env,
			...opts.env,
			KANTERA_DATA_DIR: opts.dataDir,
			OPENAI_BASE_URL: opts.mock.openaiBaseUrl,
			OPENAI_API_KEY: 'sk-test',
			KANTERA_LLM_MODEL: 'mock-model'
		},
		stdio: ['ignore', 'pipe', 'inherit']
	});
	const exited = once(child, 'exit').then(([code]) => (typeof code === 'number' ? code : null));
	const events: v.InferOutput<typeof Line>[] = [];
	const running = new Promise<string[]>((resolve, reject) => {
		createInterface({ input: child.stdout }).on('line', (text) => {
			const line = v.parse(Line, JSON.parse(text));
			events.push(line);
			if (line.event === 'running') resolve(line.turnIds);
		});
		void exited.then((code) => reject(new Error(`turn-process.ts exited (${code ?? child.signalCode}) before its turns ran`)));
	});
	// A test that never waits for it must not see an unhandled rejection when the process is killed.
	running.catch(() => undefined);
	return {
		child,
		running,
		events,
		exited,
		async kill() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await exited;
		}
	};
}

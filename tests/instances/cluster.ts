/**
 * Several app servers on one remote libSQL: each is `npm start` of the built Node target (as the README
 * starts it, tests/e2e/start-server.ts), and one Hrana test server (tests/hrana, in a process of its own,
 * as a libSQL server would be) holds the control database and every session database for all of them:
 * a fleet of instances behind a load balancer. Each app server keeps its own data directory (images,
 * nothing else).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import * as v from 'valibot';
import { startLikeReadme, type StartedServer } from '../e2e/start-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HRANA_START_TIMEOUT_MS = 60_000;

export interface Cluster {
	/** The Hrana server's origin. */
	hrana: string;
	servers: StartedServer[];
	/** Statements that waited for another stream's write lock at the server (undefined from a server that does not count them). */
	writeWaits(): Promise<number | undefined>;
	stop(): Promise<void>;
}

export interface ClusterOptions {
	processes: number;
	/** The OpenAI-compatible base URL of the mock LLM (`…/v1`). */
	openaiBaseUrl: string;
	/** A simulated network round trip on every database request. */
	hranaDelayMs?: number;
	/** More of the servers' environment. */
	env?: Record<string, string>;
	/** The checkout whose build the app servers run (default: this one; a bench's `--before` tree). Not the Hrana server's (hranaRoot). */
	root?: string;
	/** KANTERA_ADAPTER of each process, by index (node when missing): a fleet may mix targets. */
	adapters?: readonly string[];
	/** The checkout whose tests/hrana server runs (default: this one; a bench's baseline may take an older server's). */
	hranaRoot?: string;
}

const Stats = v.object({ writeWaits: v.number() });

/** tests/hrana/cli.ts in a child process; resolves with its origin once it listens. */
async function startHrana(root: string, dir: string, delayMs: number): Promise<{ origin: string; child: ChildProcess }> {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', 'tests/hrana/cli.ts', '--dir', dir, '--port', '0', '--delay-ms', String(delayMs)],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit']
		}
	);
	const listening = new Promise<string>((resolve, reject) => {
		createInterface({ input: child.stdout }).on('line', (line) => {
			const origin = /^hrana listening on (\S+)/.exec(line)?.[1];
			if (origin) resolve(origin);
		});
		child.once('exit', (code) => reject(new Error(`the Hrana server exited (${String(code)}) before it listened`)));
		setTimeout(() => reject(new Error('the Hrana server did not start')), HRANA_START_TIMEOUT_MS).unref();
	});
	try {
		return { origin: await listening, child };
	} catch (err) {
		child.kill('SIGKILL');
		throw err;
	}
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
	const root = opts.root ?? ROOT;
	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-instances-'));
	const hrana = await startHrana(opts.hranaRoot ?? ROOT, dir, opts.hranaDelayMs ?? 0);
	const env = {
		KANTERA_CONTROL_DB_URL: `${hrana.origin}/control/`,
		KANTERA_SESSION_DB_URL: `${hrana.origin}/s-{id}/`,
		OPENAI_BASE_URL: opts.openaiBaseUrl,
		OPENAI_API_KEY: 'instances-mock-key',
		KANTERA_LLM_MODEL: 'mock-model',
		KANTERA_LOG_LEVEL: 'warn',
		// Every turn of the run is one user's: the daily quota stays on (it is a control database write of
		// every accepted turn) but out of reach.
		KANTERA_FREE_TURNS_PER_DAY: '100000',
		...opts.env
	};
	const servers: StartedServer[] = [];
	const stop = async () => {
		await Promise.all(servers.map((s) => s.stop()));
		if (hrana.child.exitCode === null) {
			hrana.child.kill('SIGTERM');
			await once(hrana.child, 'exit');
		}
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		// One after the other: the first one migrates the control database, the others find it ready.
		for (let i = 0; i < opts.processes; i++)
			servers.push(await startLikeReadme({ ...env, KANTERA_ADAPTER: opts.adapters?.[i] ?? 'node' }, root));
	} catch (err) {
		await stop();
		throw err;
	}
	const writeWaits = async () => {
		const res = await fetch(`${hrana.origin}/stats`);
		const parsed = v.safeParse(Stats, res.ok ? await res.json() : undefined);
		return parsed.success ? parsed.output.writeWaits : undefined;
	};
	return { hrana: hrana.origin, servers, writeWaits, stop };
}

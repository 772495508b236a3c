/**
 * npm run bench:instances [-- --processes 3] [--sessions 20] [--turns 5] [--runs 4] [--delay-ms 0] [--stuck-s 90] [--streams] [--before DIR [--before-hrana]]
 *
 * Several app processes on one remote database: `--processes` × `npm start` (the built Node target: run
 * `npm run build` first) on the Hrana test server (tests/hrana), with `--sessions` sessions of `--turns`
 * turns each played through all of them at once, every request to the next server in turn
 * (tests/instances/load.ts). Per run: 5xx answers, turns stuck for `--stuck-s`, reads on one server
 * that missed a commit another had reported (and how long until they showed it), turn wall time.
 * `--streams` keeps an event stream open on every server for every session and checks each delivers every commit.
 * `--logs DIR` keeps each server's output there (run<N>-server<M>.log).
 * `--before DIR`: each run is played twice, first by the app servers of the checkout at DIR (built there: an older
 * commit, say `git archive main`), then by this one's, each on a fresh Hrana server of this checkout; with
 * `--before-hrana` the baseline runs on the older checkout's Hrana test server instead.
 * Not a test: figures go to docs/performance.md; tests/e2e/instances.spec.ts is the CI check.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startMockLlm, SCENARIOS } from '../tests/mock-llm';
import { startCluster } from '../tests/instances/cluster';
import { playLoad, type LoadReport } from '../tests/instances/load';
import { percentile } from './bench-lib/stats';

const { values: args } = parseArgs({
	options: {
		processes: { type: 'string', default: '3' },
		sessions: { type: 'string', default: '20' },
		turns: { type: 'string', default: '5' },
		runs: { type: 'string', default: '4' },
		'delay-ms': { type: 'string', default: '0' },
		'stuck-s': { type: 'string', default: '90' },
		logs: { type: 'string' },
		before: { type: 'string' },
		'before-hrana': { type: 'boolean', default: false },
		streams: { type: 'boolean', default: false }
	}
});
const count = (name: keyof typeof args, min: number): number => {
	const n = Number(args[name]);
	if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${String(args[name])}`);
	return n;
};
const PROCESSES = count('processes', 1);
const SESSIONS = count('sessions', 1);
const TURNS = count('turns', 1);
const RUNS = count('runs', 1);
const DELAY_MS = count('delay-ms', 0);
const STUCK_MS = count('stuck-s', 1) * 1000;

function summary(run: number, r: LoadReport, writeWaits: number | undefined): string {
	const posts = r.serverErrors.filter((e) => e.method === 'POST').length;
	const codes = [...new Set(r.serverErrors.map((e) => /"code":"([A-Z_]+)"/.exec(e.body)?.[1] ?? String(e.status)))].join(', ');
	const lags = r.staleReads.map((s) => (s.visibleAfterMs === undefined ? 'never' : `${(s.visibleAfterMs / 1000).toFixed(1)} s`));
	return [
		`run ${run}: ${r.committed}/${r.turns} committed in ${(r.durationMs / 1000).toFixed(1)} s`,
		`5xx ${r.serverErrors.length} (POST ${posts}${codes ? `; ${codes}` : ''})`,
		`stuck ${r.stuck.length}`,
		`failed ${r.failed.length}`,
		`stale reads ${r.staleReads.length}${lags.length ? ` (visible after ${lags.join(', ')})` : ''}`,
		`turn p50 ${percentile(r.turnMs, 50)} ms p95 ${percentile(r.turnMs, 95)} ms`,
		...(args.streams
			? [`streams missed ${r.streamsMissed.length}, lag p50 ${percentile(r.streamLagMs, 50)} ms p95 ${percentile(r.streamLagMs, 95)} ms`]
			: []),
		`writes that waited for another's lock at the server ${writeWaits ?? 'not counted'}`
	].join(' · ');
}

const mock = await startMockLlm({ handler: SCENARIOS['adv-play'] });
console.log(
	`${PROCESSES} processes × ${SESSIONS} sessions × ${TURNS} turns on one Hrana server (${DELAY_MS} ms per request), ${RUNS} runs`
);
/** One run by the app servers of `root`: its summary line, and the servers' output kept under --logs. */
async function playRun(run: number, label: string, root: string | undefined, hranaRoot?: string): Promise<void> {
	const cluster = await startCluster({ processes: PROCESSES, openaiBaseUrl: mock.openaiBaseUrl, hranaDelayMs: DELAY_MS, root, hranaRoot });
	try {
		const report = await playLoad({
			servers: cluster.servers.map((s) => s.url),
			sessions: SESSIONS,
			turnsPerSession: TURNS,
			stuckAfterMs: STUCK_MS,
			streams: args.streams
		});
		console.log(`${label}${summary(run, report, await cluster.writeWaits())}`);
		for (const e of report.serverErrors.slice(0, 3)) console.log(`  ${e.status} ${e.method} ${e.path} on ${e.server}: ${e.body}`);
		const { logs } = args;
		if (logs !== undefined) {
			mkdirSync(logs, { recursive: true });
			cluster.servers.forEach((s, i) => writeFileSync(path.join(logs, `run${run}${label.trim()}-server${i}.log`), s.output()));
		}
	} finally {
		await cluster.stop();
	}
}

try {
	for (let run = 1; run <= RUNS; run++) {
		const { before } = args;
		if (before !== undefined) await playRun(run, 'before ', path.resolve(before), args['before-hrana'] ? path.resolve(before) : undefined);
		await playRun(run, args.before === undefined ? '' : 'after  ', undefined);
	}
} finally {
	await mock.close();
}

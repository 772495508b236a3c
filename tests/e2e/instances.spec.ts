/**
 * Several app instances on one remote libSQL, as behind a load balancer: three `npm start` servers (two
 * Node, one Deno, which runs with --deny-ffi since every database is remote) on one Hrana test server in
 * a process of its own (tests/instances/cluster.ts), players' requests to the next server in turn
 * (tests/instances/load.ts). No answer may be a 5xx, no turn may stay unfinished, and once one server
 * reported a turn committed, every other server's next read shows it. `npm run bench:instances` is the
 * larger run (three Node processes × 20 sessions × 5 turns, figures in docs/performance.md).
 */
import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startCluster, type Cluster } from '../instances/cluster';
import { playLoad } from '../instances/load';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADAPTERS = ['node', 'node', 'deno'] as const;
const SESSIONS = 4;
const TURNS = 3;
const STUCK_MS = 90_000;
const START_TIMEOUT_MS = 180_000;

let cluster: Cluster | undefined;

test.beforeAll(async () => {
	test.setTimeout(START_TIMEOUT_MS);
	if (!existsSync(path.join(ROOT, '.deno-deploy/server/index.js')))
		throw new Error('No deno build: run `KANTERA_ADAPTER=node,bun,deno npm run build` (npm run test:e2e does) first.');
	const mockPort = process.env.KANTERA_E2E_MOCK_PORT;
	if (!mockPort) throw new Error('KANTERA_E2E_MOCK_PORT is unset: run through playwright.config.ts, which starts the mock LLM');
	cluster = await startCluster({ processes: ADAPTERS.length, adapters: ADAPTERS, openaiBaseUrl: `http://127.0.0.1:${mockPort}/v1` });
});

test.afterAll(async () => {
	await cluster?.stop();
});

function started(): Cluster {
	if (!cluster) throw new Error('the cluster did not start');
	return cluster;
}

test('Deno serves from remote databases with native code denied (--deny-ffi)', () => {
	const deno = started().servers[ADAPTERS.indexOf('deno')];
	const output = deno?.output() ?? '';
	expect(output).toContain('Deno runs with --deny-ffi: every database is remote');
	expect(output).toMatch(/Listening on http:\/\/\S+ \(Deno /);
	expect(output).not.toMatch(/NotCapable|Requires ffi access/i);
});

test(`${ADAPTERS.length} instances × ${SESSIONS} sessions × ${TURNS} turns on one libSQL server: no 5xx, no stuck turn, commits seen by all`, async () => {
	test.setTimeout(STUCK_MS + 120_000);
	const { servers } = started();
	const report = await playLoad({
		servers: servers.map((s) => s.url),
		sessions: SESSIONS,
		turnsPerSession: TURNS,
		stuckAfterMs: STUCK_MS,
		streams: true
	});
	expect(report.serverErrors).toEqual([]);
	expect(report.stuck).toEqual([]);
	expect(report.failed).toEqual([]);
	expect(report.staleReads).toEqual([]);
	expect(report.streamsMissed).toEqual([]);
	expect(report.committed).toBe(SESSIONS * TURNS);
	for (const s of servers) expect(s.output()).not.toMatch(/SQLITE_BUSY|failed \d+ times in a row/);
});

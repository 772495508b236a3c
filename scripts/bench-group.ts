/**
 * npm run bench:group [-- --delay-ms 25] [--seconds 10]
 *
 * Play together against a remote-like database: one session, four players (the owner and three seated through
 * an invitation), 12 event streams open (three tabs each, each stream checking its own viewer's access as the
 * endpoint does), counted as HTTP requests by the Hrana test server (tests/hrana), which waits `--delay-ms`
 * before each answer, as bench:sse does:
 *   - quiet: requests per second to the session and control databases with 0 and with 12 streams open;
 *   - a round: each of the four players sends a line at once in free order while the first is being answered
 *     (the scripted mock LLM streams 40 frames, 40 ms apart): the lines queue and one more turn answers the other
 *     three; the requests the round took with 0 and with 12 streams open.
 * The shared reader (one feed per session and process) should keep the streams' share flat. Not a test: figures
 * go to docs/performance.md.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startHranaServer } from '../tests/hrana';
import { createApp, type App } from '../src/lib/server/app';
import { createUser, type AuthUser } from '../src/lib/server/auth';
import { acceptInvitation, createInvitation, sessionAccess, startSession } from '../src/lib/server/sessions';
import { openEventStream } from '../src/lib/server/events';
import { postTurn } from '../src/lib/server/api';
import { newId } from '../src/lib/server/db';
import { startMockLlm } from '../tests/mock-llm';
import { benchConfig, mockProvider, tempDataDir } from './bench-lib/setup';

const { values: args } = parseArgs({
	options: { 'delay-ms': { type: 'string', default: '25' }, seconds: { type: 'string', default: '10' } }
});
const DELAY_MS = Number(args['delay-ms']);
const WINDOW_MS = Number(args.seconds) * 1000;
const PLAYERS = 4;
const TABS_EACH = 3;
/** Opening streams resumes the session's work and starts the reader: not measured. */
const SETTLE_MS = 1_500;
const REPLY = Array.from({ length: 40 }, (_, i) => `Word${i} `);
const FRAME_MS = 40;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function consume(res: Response): Promise<void> {
	const reader = res.body?.getReader();
	if (!reader) return;
	for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
}

const dbs = tempDataDir('kantera-bench-group-');
const hrana = await startHranaServer({ dir: path.join(dbs.dir, 'hrana'), autoCreate: true, delayMs: DELAY_MS });
const mock = await startMockLlm();
mock.setHandler(() => ({ text: REPLY, frameDelayMs: FRAME_MS }));
let app: App | undefined;
const rows: string[] = [];
try {
	const { host } = new URL(hrana.origin);
	app = await createApp(
		benchConfig(path.join(dbs.dir, 'data'), {
			OPENAI_BASE_URL: mock.openaiBaseUrl,
			KANTERA_CONTROL_DB_URL: hrana.urlFor('control'),
			KANTERA_SESSION_DB_URL: `libsql://${host}/s-{id}/?tls=0`
		}),
		{ provider: mockProvider(mock.openaiBaseUrl), background: false }
	);
	const a = app;
	const users: AuthUser[] = [];
	for (let i = 0; i < PLAYERS; i++) users.push(await createUser(a, { name: `player${i}`, password: 'bench-password' }));
	const [owner, ...guests] = users;
	if (!owner) throw new Error('no owner');
	const { session } = await startSession(a, { ownerId: owner.id, title: 'Four at the table' });
	const link = await createInvitation(a, session.id, {});
	for (const g of guests) await acceptInvitation(a, g.id, link.token, { name: g.name });
	const sessionDb = `s-${session.id}`;

	const open = (n: number) => {
		const aborts: AbortController[] = [];
		const reading: Promise<void>[] = [];
		for (let i = 0; i < n; i++) {
			const viewer = users[i % PLAYERS] ?? owner;
			const abort = new AbortController();
			aborts.push(abort);
			const check = async () =>
				sessionAccess(a, viewer.id, session.id).then(
					() => true,
					() => false
				);
			reading.push(
				openEventStream({
					feeds: a.feeds,
					sessionId: session.id,
					after: undefined,
					signal: abort.signal,
					access: { key: viewer.id, check }
				}).then(consume)
			);
		}
		return async () => {
			for (const abort of aborts) abort.abort();
			await Promise.all(reading);
		};
	};
	const measure = async (n: number, work: () => Promise<unknown>) => {
		const close = open(n);
		await sleep(SETTLE_MS);
		hrana.resetStats();
		const started = performance.now();
		await work();
		const seconds = (performance.now() - started) / 1000;
		const s = hrana.stats.byDatabase.get(sessionDb) ?? 0;
		const c = hrana.stats.byDatabase.get('control') ?? 0;
		await close();
		await sleep(SETTLE_MS);
		return { s, c, seconds };
	};
	const round = async () => {
		await Promise.all(
			users.map(async (u, i) => {
				await sleep(i === 0 ? 0 : 200);
				const access = await sessionAccess(a, u.id, session.id);
				await a.sessions.use(session.id, (s) => postTurn(a, u, s, { text: `Line from ${u.name}`, idempotencyKey: newId() }, access));
			})
		);
		await a.runner.idle();
	};
	await round(); // one-off costs of a session's first turns: not measured
	const streams = PLAYERS * TABS_EACH;
	for (const n of [0, streams]) {
		const quiet = await measure(n, () => sleep(WINDOW_MS));
		const perS = (x: number) => (x / quiet.seconds).toFixed(1);
		const turns = await measure(n, round);
		rows.push(
			`| ${n} | ${perS(quiet.s + quiet.c)} | ${perS(quiet.s)} | ${perS(quiet.c)} | ${turns.s + turns.c} | ${turns.seconds.toFixed(1)} s |`
		);
	}
} finally {
	await app?.close();
	await hrana.close();
	await mock.close();
	dbs.remove();
}

console.log(
	`\none session, ${PLAYERS} players, Hrana test server answering after ${DELAY_MS} ms; quiet: ${WINDOW_MS / 1000} s per figure\n`
);
console.log('| open streams | quiet requests/s | session database | control database | requests in a round of 4 lines | round took |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);

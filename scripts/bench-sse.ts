/**
 * npm run bench:sse [-- --delay-ms 25] [--seconds 10] [--before <git ref>]
 *
 * What open event streams cost a remote database, with 1, 5 and 20 streams open on one session,
 * counted as HTTP requests by the Hrana test server (tests/hrana; one request is one round trip, as
 * bench:roundtrips counts them), which waits `--delay-ms` before each answer:
 *   - quiet: requests per second to the session database and to the control database;
 *   - a streaming turn (the scripted mock LLM streams a reply in 40 frames, 40 ms apart; this process
 *     writes the deltas and its bus wakes the readers): the requests the streams added to the turn's own
 *     (the same turn with no stream open).
 * Two builds in the same run, on the same app and databases:
 *   - before: the SSE writer of `--before` (by default the commit before the session feeds came in),
 *     taken from git into a temp dir: each stream polls the log and re-checks ownership every second;
 *   - after: this checkout's, through the app's feeds (one reader per session, as the endpoint uses it).
 * Not a test: figures go to docs/performance.md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { startHranaServer } from '../tests/hrana';
import { createApp, type App } from '../src/lib/server/app';
import { createUser } from '../src/lib/server/auth';
import { getPlaySession, PlaySessionNotFoundError, startSession } from '../src/lib/server/sessions';
import { openEventStream } from '../src/lib/server/events';
import { acceptTurn } from '../src/lib/server/turn';
import { newId } from '../src/lib/server/db';
import { startMockLlm } from '../tests/mock-llm';
import { benchConfig, mockProvider, tempDataDir } from './bench-lib/setup';

const { values: args } = parseArgs({
	options: {
		'delay-ms': { type: 'string', default: '25' },
		seconds: { type: 'string', default: '10' },
		before: { type: 'string' }
	}
});
const DELAY_MS = Number(args['delay-ms']);
const WINDOW_MS = Number(args.seconds) * 1000;
const STREAMS = [1, 5, 20];
/** Opening streams resumes the session's work (a look at what waits) and starts the readers: not measured. */
const SETTLE_MS = 1_500;

const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).trim();

/** The commit before the one that added the session feeds; this checkout's HEAD while they are not committed. */
function defaultBefore(): string {
	const added = git('log', '--diff-filter=A', '--format=%H', '--', 'src/lib/server/events/feed.ts').split('\n').filter(Boolean).at(-1);
	return added ? `${added}^` : 'HEAD';
}

const OldSse = v.object({ openEventStream: v.function() });

/** The previous build's `openEventStream`, from its sources at `ref` (node_modules shared with this checkout). */
async function previousBuild(ref: string, dir: string): Promise<(opts: Record<string, unknown>) => Promise<Response>> {
	const tree = path.join(dir, 'before');
	mkdirSync(tree);
	const archive = execFileSync('git', ['archive', '--format=tar', ref, 'src', 'package.json'], { maxBuffer: 1 << 30 });
	execFileSync('tar', ['-x', '-C', tree], { input: archive });
	symlinkSync(path.resolve('node_modules'), path.join(tree, 'node_modules'), 'dir');
	cpSync('tsconfig.json', path.join(tree, 'tsconfig.json'));
	const mod = v.parse(OldSse, await import(pathToFileURL(path.join(tree, 'src/lib/server/events/sse.ts')).href));
	return async (opts) => {
		const res = await mod.openEventStream(opts);
		if (!(res instanceof Response)) throw new Error(`the SSE writer of ${ref} did not answer with a Response`);
		return res;
	};
}

/** Reads a stream until it ends, as a browser tab would. */
async function consume(res: Response): Promise<void> {
	const reader = res.body?.getReader();
	if (!reader) return;
	for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
}

type Open = (signal: AbortSignal) => Promise<Response>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Hrana = Awaited<ReturnType<typeof startHranaServer>>;

/** Session and control database requests while `n` streams are open and `work` runs. */
async function withStreams(hrana: Hrana, sessionDb: string, n: number, open: Open, work: () => Promise<unknown>) {
	// One request per stream, each with its own signal, as each tab's request has.
	const aborts = Array.from({ length: n }, () => new AbortController());
	const reading: Promise<void>[] = [];
	for (const abort of aborts) reading.push(consume(await open(abort.signal)));
	await sleep(SETTLE_MS);
	hrana.resetStats();
	const started = performance.now();
	await work();
	const seconds = (performance.now() - started) / 1000;
	const session = hrana.stats.byDatabase.get(sessionDb) ?? 0;
	const control = hrana.stats.byDatabase.get('control') ?? 0;
	for (const abort of aborts) abort.abort();
	await Promise.all(reading);
	await sleep(SETTLE_MS);
	return { session, control, seconds };
}

const REPLY = Array.from({ length: 40 }, (_, i) => `Word${i} `);
const FRAME_MS = 40;

const ref = args.before ?? defaultBefore();
const dbs = tempDataDir('kantera-bench-sse-');
const hrana = await startHranaServer({ dir: path.join(dbs.dir, 'hrana'), autoCreate: true, delayMs: DELAY_MS });
const mock = await startMockLlm();
let app: App | undefined;
const rows: string[] = [];
const turnRows: string[] = [];
try {
	const before = await previousBuild(ref, dbs.dir);
	const { host } = new URL(hrana.origin);
	app = await createApp(
		benchConfig(path.join(dbs.dir, 'data'), {
			OPENAI_BASE_URL: mock.openaiBaseUrl,
			KANTERA_CONTROL_DB_URL: hrana.urlFor('control'),
			KANTERA_SESSION_DB_URL: `libsql://${host}/s-{id}/?tls=0`
		}),
		{
			provider: mockProvider(mock.openaiBaseUrl),
			background: false
		}
	);
	const a = app;
	const user = await createUser(a, { name: 'bench', password: 'bench-password' });
	const { session } = await startSession(a, { ownerId: user.id, title: 'Many tabs' });
	// The ownership check the endpoint makes, in both builds.
	const owned = async () => {
		try {
			await getPlaySession(a, user.id, session.id);
			return true;
		} catch (err) {
			if (err instanceof PlaySessionNotFoundError) return false;
			throw err;
		}
	};
	const builds: [string, Open][] = [
		[
			`before (${git('rev-parse', '--short', ref)}: each stream polls)`,
			(signal) => before({ sessions: a.sessions, bus: a.bus, sessionId: session.id, after: undefined, signal, stillExists: owned })
		],
		[
			'after (one feed per session)',
			(signal) =>
				openEventStream({ feeds: a.feeds, sessionId: session.id, after: undefined, signal, access: { key: user.id, check: owned } })
		]
	];
	const sessionDb = `s-${session.id}`;
	for (const n of STREAMS) {
		for (const [label, open] of builds) {
			const r = await withStreams(hrana, sessionDb, n, open, () => sleep(WINDOW_MS));
			const perS = (x: number) => (x / r.seconds).toFixed(1);
			rows.push(`| ${n} | ${label} | ${perS(r.session + r.control)} | ${perS(r.session)} | ${perS(r.control)} |`);
		}
	}
	let turns = 0;
	const turn = async () => {
		mock.script([{ text: REPLY, frameDelayMs: FRAME_MS }]);
		await a.sessions.use(session.id, (s) => acceptTurn(a, s, { userId: user.id, text: `I wait (${++turns})`, idempotencyKey: newId() }));
		a.runner.kick(session.id);
		await a.runner.idle();
	};
	// The first turn of a session pays one-off costs: not measured.
	await turn();
	const alone = await withStreams(hrana, sessionDb, 0, () => Promise.reject(new Error('no stream is opened')), turn);
	turnRows.push(`| 0 | — | ${alone.session + alone.control} | — |`);
	for (const n of STREAMS) {
		for (const [label, open] of builds) {
			const r = await withStreams(hrana, sessionDb, n, open, turn);
			const added = r.session + r.control - (alone.session + alone.control);
			turnRows.push(`| ${n} | ${label} | ${r.session + r.control} | ${added} |`);
		}
	}
} finally {
	await app?.close();
	await hrana.close();
	await mock.close();
	dbs.remove();
}

console.log(`\nquiet session, ${WINDOW_MS / 1000} s per figure, Hrana test server answering after ${DELAY_MS} ms\n`);
console.log('| open streams | build | requests/s | session database | control database |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\na streaming turn (${REPLY.length} frames, ${FRAME_MS} ms apart), requests during it\n`);
console.log('| open streams | build | requests | added by the streams |');
console.log('|---|---|---|---|');
for (const row of turnRows) console.log(row);

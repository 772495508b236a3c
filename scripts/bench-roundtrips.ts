/**
 * npm run bench:roundtrips [-- --delay-ms 25] [--turns 5] [--budget] [--trace]
 *
 * Round trips to the database per operation in remote mode. The app runs with every database on the
 * Hrana-over-HTTP test server (tests/hrana), which waits `--delay-ms` before answering each request (a
 * simulated network round trip) and counts the requests it answers: one HTTP request is one round trip.
 * Measured through the real @libsql/client and the real engine, with the scripted mock LLM (real SDK):
 *   - session creation from a world (startSession, the world seeded);
 *   - a plain GM turn: one tool call (journal_append), then a reply; accept → runner idle (post-commit
 *     embedding included).
 * The same operations run on local files for the wall-time baseline. Not a test: figures go to
 * docs/performance.md. `--budget` sets a limit and a warning on every shared budget scope (session, user's
 * day, server's month; far above what the bench spends), so every LLM call is reserved and settled in the
 * control database as on a server with budgets (without it no call is reserved). `--trace` prints, for
 * the last measured run of each operation, the SQL each round trip carried (where the round trips go).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { startHranaServer, type HranaServer } from '../tests/hrana';
import { startMockLlm, type MockLlm } from '../tests/mock-llm';
import { createApp, type App } from '../src/lib/server/app';
import { createUser } from '../src/lib/server/auth';
import { startSession } from '../src/lib/server/sessions';
import { acceptTurn } from '../src/lib/server/turn';
import { newId } from '../src/lib/server/db';
import { undoTurn, saveGame, loadSave } from '../src/lib/server/timetravel';
import { getPlaySession } from '../src/lib/server/sessions';
import { benchConfig, mockProvider, tempDataDir } from './bench-lib/setup';
import { percentile } from './bench-lib/stats';

const { values: args } = parseArgs({
	options: {
		'delay-ms': { type: 'string', default: '25' },
		turns: { type: 'string', default: '5' },
		trace: { type: 'boolean', default: false },
		budget: { type: 'boolean', default: false }
	}
});
const DELAY_MS = Number(args['delay-ms']);
const TURNS = Number(args.turns);
/** Limits and warnings no bench run reaches: what they cost is the reservations' round trips. */
const BUDGET_ENV: Record<string, string> = args.budget
	? {
			KANTERA_BUDGET_SESSION_USD: '1000',
			KANTERA_BUDGET_SESSION_WARN_USD: '900',
			KANTERA_BUDGET_USER_DAY_USD: '1000',
			KANTERA_BUDGET_USER_DAY_WARN_USD: '900',
			KANTERA_BUDGET_GLOBAL_MONTH_USD: '10000',
			KANTERA_BUDGET_GLOBAL_MONTH_WARN_USD: '9000'
		}
	: {};

/** The round trips of the operation being measured: database and the SQL each carried. */
let trips: string[] = [];
const lastTrips = new Map<string, string[]>();

interface Sample {
	ms: number;
	requests: number;
	control: number;
	session: number;
	statements: number;
}

async function appOn(dir: string, mock: MockLlm, hrana: HranaServer | undefined): Promise<App> {
	const remote: Record<string, string> = hrana
		? { KANTERA_CONTROL_DB_URL: hrana.urlFor('control'), KANTERA_SESSION_DB_URL: `${hrana.origin}/s-{id}/` }
		: {};
	const cfg = benchConfig(dir, { OPENAI_BASE_URL: mock.openaiBaseUrl, ...BUDGET_ENV, ...remote });
	return createApp(cfg, {
		provider: mockProvider(mock.openaiBaseUrl),
		background: false
	});
}

async function measure(hrana: HranaServer | undefined, fn: () => Promise<unknown>): Promise<Sample> {
	hrana?.resetStats();
	trips = [];
	const start = performance.now();
	await fn();
	const ms = performance.now() - start;
	const by = [...(hrana?.stats.byDatabase ?? new Map<string, number>()).entries()];
	const control = by.filter(([db]) => db === 'control').reduce((a, [, n]) => a + n, 0);
	const requests = hrana?.stats.requests ?? 0;
	return { ms, requests, control, session: requests - control, statements: hrana?.stats.statements ?? 0 };
}

async function run(
	label: string,
	hrana: HranaServer | undefined,
	mock: MockLlm
): Promise<{ label: string; create: Sample[]; turn: Sample[]; undo: Sample[]; save: Sample[]; load: Sample[] }> {
	const d = tempDataDir('kantera-bench-rt-');
	const app = await appOn(d.dir, mock, hrana);
	try {
		const user = await createUser(app, { name: 'bench', password: 'bench-password' });
		const create: Sample[] = [];
		const turn: Sample[] = [];
		let sessionId = '';
		for (let i = 0; i < 3; i++) {
			create.push(
				await measure(
					hrana,
					async () =>
						(sessionId = (await startSession(app, { ownerId: user.id, title: `Bench ${i}`, worldId: 'sword-and-sorcery', language: 'en' }))
							.session.id)
				)
			);
			// A copy: the image jobs started by the seed go on adding to `trips` after the measure.
			if (hrana) lastTrips.set('session from a world', trips.slice());
			// The world's image orders run in the background: let them finish before the next measure.
			await app.images.idle();
		}
		for (let i = 0; i < TURNS + 1; i++) {
			mock.script([
				{ toolCalls: [{ name: 'journal_append', arguments: { entry: `Day ${i}: the bell of the salt tower rings.` } }] },
				{ text: 'Gulls cry over the pier. The guard waves you through.' }
			]);
			const sample = await measure(hrana, async () => {
				await app.sessions.use(sessionId, (s) =>
					acceptTurn(app, s, { userId: user.id, tier: user.tier, text: `I walk on (${i})`, idempotencyKey: newId() })
				);
				app.runner.kick(sessionId);
				await app.runner.idle();
			});
			// The first turn of a session pays one-off costs (settings, vector table): kept apart.
			if (i > 0) turn.push(sample);
			if (hrana) lastTrips.set('plain GM turn', trips.slice());
		}
		// Time travel on the same session: undo its last turn (played again between runs), save, load the save.
		const undo: Sample[] = [];
		const save: Sample[] = [];
		const load: Sample[] = [];
		for (let i = 0; i < 3; i++) {
			mock.script([
				{ toolCalls: [{ name: 'journal_append', arguments: { entry: `Night ${i}: the tide comes in.` } }] },
				{ text: 'The lanterns are lit along the quay.' }
			]);
			const played = await app.sessions.use(sessionId, (s) =>
				acceptTurn(app, s, { userId: user.id, text: `I wait (${i})`, idempotencyKey: newId() })
			);
			app.runner.kick(sessionId);
			await app.runner.idle();
			undo.push(await measure(hrana, () => app.sessions.use(sessionId, (s) => undoTurn(app, s, played.turnId, newId()))));
			if (hrana) lastTrips.set('undo of a plain GM turn', trips.slice());
			await app.runner.idle();
			let saveId = '';
			save.push(
				await measure(hrana, async () => {
					saveId = (await app.sessions.use(sessionId, (s) => saveGame(app, s, { quick: false }, 'en'))).id;
				})
			);
			if (hrana) lastTrips.set('save', trips.slice());
			const session = await getPlaySession(app, user.id, sessionId);
			load.push(await measure(hrana, () => app.sessions.use(sessionId, (s) => loadSave(app, s, session, saveId))));
			if (hrana) lastTrips.set('load a save', trips.slice());
			await app.images.idle();
		}
		return { label, create, turn, undo, save, load };
	} finally {
		await app.close();
		d.remove();
	}
}

const med = (xs: number[]) => percentile(xs, 50);
const fmt = (s: Sample[], k: keyof Sample) => String(Math.round(med(s.map((x) => x[k]))));

const mock = await startMockLlm();
const dbs = tempDataDir('kantera-bench-hrana-');
const delayed = await startHranaServer({
	dir: dbs.dir,
	autoCreate: true,
	delayMs: DELAY_MS,
	trace: (db, sqls) =>
		trips.push(`${db === 'control' ? 'control' : 'session'}: ${sqls.map((q) => q.replace(/\s+/g, ' ').slice(0, 90)).join(' ; ')}`)
});
const results = [];
try {
	results.push(await run('local files', undefined, mock));
	results.push(await run(`Hrana, ${DELAY_MS} ms per request`, delayed, mock));
} finally {
	await delayed.close();
	await mock.close();
	dbs.remove();
}

const budgetNote = args.budget ? '; budget limits on every shared scope' : '';
console.log(
	`\nmedians; session creation: 3 runs; GM turn (one tool call + reply): ${TURNS} runs after a first turn; undo, save, load: 3 runs${budgetNote}\n`
);
console.log('| operation | database | wall time | HTTP round trips (control + session) | SQL statements |');
console.log('|---|---|---|---|---|');
for (const r of results) {
	for (const [op, s] of [
		['session from a world', r.create],
		['plain GM turn', r.turn],
		['undo of a plain GM turn', r.undo],
		['save (named slot)', r.save],
		['load a save (branch)', r.load]
	] as const) {
		const remote = r.label !== 'local files';
		const requests = remote ? `${fmt(s, 'requests')} (${fmt(s, 'control')} + ${fmt(s, 'session')})` : '—';
		console.log(`| ${op} | ${r.label} | ${fmt(s, 'ms')} ms | ${requests} | ${remote ? fmt(s, 'statements') : '—'} |`);
	}
}

if (args.trace) {
	for (const [op, list] of lastTrips) {
		console.log(`\n${op}: ${list.length} round trips`);
		for (const t of list) console.log(`  ${t}`);
	}
}

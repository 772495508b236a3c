/**
 * npm run bench:turn [-- --turns N] [--history H] [--reps R] [--no-usage]
 *
 * Harness overhead per turn: everything but waiting for the LLM. An instant in-process scripted GM
 * (scripts/bench-lib) plays H turns (default 1,000) through the real engine and runner to build a
 * realistic session database (turns, play log, journal, notes, state, sections, vectors, events,
 * checkpoints), then N more turns (default 200) are measured end to end: acceptTurn → runner.kick →
 * committed (the commit's bus notification), minus the time spent inside the provider. Run once with
 * the production o200k tokenizer and once with the cheap estimator as the engine's counter. The GM
 * reports its usage as vendors do, so an exchange's tokens come from it (the player's line estimated)
 * and the counter only sees the text of rounds that also called a tool; `--no-usage` has it report
 * none, and the counter measures every exchange, as for a server without usage. A component profile on the same database follows.
 * Not a test: figures go to docs/performance.md.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { newId, openControlDb, sessionSchema, type ControlDb, type SessionDb, type SessionTx } from '../src/lib/server/db';
import type { Config } from '../src/lib/server/config';
import { createEmbedder } from '../src/lib/server/search';
import { gmToolMap, PLAYER_VISIBLE_TOOL_ACTIVITY } from '../src/lib/server/tools';
import {
	buildContext,
	checkpointDue,
	countTokensO200k,
	estimateTokens,
	systemText,
	windowOf,
	type TokenCounter
} from '../src/lib/server/context-window';
import { acceptTurn, historySinceCheckpoint, loadHead, Staging, TurnRunner } from '../src/lib/server/turn';
import { readMission, readSettings } from '../src/lib/server/session-setup';
import { appendEvent } from '../src/lib/server/events';
import { loadScopes, recordCall } from '../src/lib/server/budget';
import { journal, log } from '../src/lib/server/records';
import { CampaignScript } from './bench-lib/campaign-script';
import { ScriptedProvider, type CallRecord } from './bench-lib/scripted-provider';
import { benchConfig, player, seedSession, tempDataDir } from './bench-lib/setup';
import { cpuMs, Probe, ProbedBus, ProbedEmbedder, ProbedPool, probedCounter, SYNCHRONOUS_NORMAL } from './bench-lib/probe';
import { latency, ms, round, table, type Latency } from './bench-lib/stats';

const { values: args } = parseArgs({
	options: {
		turns: { type: 'string', default: '200' },
		history: { type: 'string', default: '1000' },
		reps: { type: 'string', default: '200' },
		/** `normal`: measure with PRAGMA synchronous=NORMAL instead of the production default (FULL). */
		synchronous: { type: 'string', default: 'full' },
		/** The GM reports no usage: the engine counts every exchange with its counter. */
		'no-usage': { type: 'boolean', default: false }
	}
});
const TURNS = Number(args.turns);
const HISTORY = Number(args.history);
const REPS = Number(args.reps);
const SYNC_NORMAL = args.synchronous === 'normal';
/** The brief's target for the harness overhead per turn. */
const TARGET_P95_MS = 30;
/** Characters per token the instant provider bills (its own counting must not cost anything). */
const PROVIDER_CHARS_PER_TOKEN = 4;

interface TurnSample {
	/** accept → committed (the commit's bus notification), ms. */
	total: number;
	/** Process CPU time over the same span, ms. */
	cpu: number;
	accept: number;
	provider: number;
	overhead: number;
	tokenizer: number;
	writes: number;
	writeMs: number;
	/** committed → runner idle (post-commit embedding, checkpoint check; the checkpoint itself when due). */
	after: number;
	afterEmbed: number;
	checkpoint: boolean;
	toolCalls: number;
}

class Rollback extends Error {}

/** Runs `fn` in a write transaction that is rolled back: measures a write without changing the session. */
async function rolledBack(s: SessionDb, fn: (tx: SessionTx) => Promise<unknown>): Promise<void> {
	try {
		await s.write(async (tx) => {
			await fn(tx);
			throw new Rollback();
		});
	} catch (err) {
		if (!(err instanceof Rollback)) throw err;
	}
}

async function timeIt(reps: number, fn: (i: number) => unknown): Promise<Latency> {
	const xs: number[] = [];
	for (let i = 0; i < reps; i++) {
		const started = performance.now();
		await fn(i);
		xs.push(performance.now() - started);
	}
	return latency(xs);
}

async function main() {
	const { dir, remove } = tempDataDir('kantera-bench-turn-');
	const cfg = benchConfig(dir);
	const probe = new Probe();
	const control = await openControlDb(cfg);
	const sessions = new ProbedPool(cfg, probe, SYNC_NORMAL);
	const relaxControl = async () => {
		if (SYNC_NORMAL) await control.client.execute(SYNCHRONOUS_NORMAL);
	};
	const counter = probedCounter(probe, countTokensO200k);
	const script = new CampaignScript();
	const provider = new ScriptedProvider(script, {
		countInput: (req) => Math.ceil((req.system.length + req.messages.reduce((n, m) => n + m.content.length, 0)) / PROVIDER_CHARS_PER_TOKEN),
		countOutput: (text) => Math.ceil(text.length / PROVIDER_CHARS_PER_TOKEN),
		reportUsage: !args['no-usage'],
		observe: (_req, call) => probe.mark(call.kind.startsWith('checkpoint') ? 'llm-checkpoint' : 'llm')
	});
	const runner = new TurnRunner({
		config: cfg,
		control,
		sessions,
		bus: new ProbedBus(probe),
		embedder: new ProbedEmbedder(createEmbedder(cfg.embeddings), probe),
		provider: () => provider,
		tools: gmToolMap(),
		visibleTools: PLAYER_VISIBLE_TOOL_ACTIVITY,
		countTokens: counter.count
	});
	const deps = { config: cfg, control, sessions, runner };
	const p = player(deps);
	try {
		await sessions.create(p.sessionId);
		await sessions.use(p.sessionId, (s) => seedSession(s));
		countTokensO200k('warm up'); // loads the o200k ranks (about a second) before anything is timed
		console.log(
			`turn bench: ${HISTORY} committed turns, then ${TURNS} measured with o200k and ${TURNS} with the \
estimator; KANTERA_CHECKPOINT_TOKENS=${cfg.engine.memory.checkpointTokens}, \
KANTERA_WINDOW_EXCHANGES=${cfg.engine.memory.windowExchanges}, \
embeddings ${cfg.embeddings.provider} (${cfg.embeddings.dimensions ?? '?'} dims); \
PRAGMA synchronous=${SYNC_NORMAL ? 'NORMAL' : 'FULL (production default)'}; \
the GM ${args['no-usage'] ? 'reports no usage' : 'reports its usage'}; Node ${process.version}`
		);

		let index = 0;
		const buildStarted = performance.now();
		while (index < HISTORY) {
			index++;
			provider.current = index;
			await relaxControl();
			await p.play(script.turn(index).player);
			if (index % 250 === 0) console.log(`  built ${index} turns (${((performance.now() - buildStarted) / 1000).toFixed(1)} s)`);
		}
		const buildSeconds = (performance.now() - buildStarted) / 1000;
		const counts = await sessions.use(p.sessionId, async (s) => {
			const n = async (table: string) => {
				const rows = await s.db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`));
				return rows[0]?.n ?? 0;
			};
			return {
				turns: await n('turns'),
				events: await n('events'),
				logMessages: await n('log_messages'),
				journal: await n('journal'),
				memoryNotes: await n('memory_notes'),
				sections: await n('sections'),
				summaries: await n('summaries')
			};
		});
		console.log(`built in ${buildSeconds.toFixed(1)} s: ${JSON.stringify(counts)}`);

		const measure = async (label: string, c: TokenCounter): Promise<TurnSample[]> => {
			counter.use(c);
			const samples: TurnSample[] = [];
			for (let k = 0; k < TURNS; k++) {
				index++;
				provider.current = index;
				const callsBefore = provider.calls.length;
				await relaxControl();
				probe.reset();
				const cpuStarted = cpuMs();
				const started = performance.now();
				const text = script.turn(index).player;
				await sessions.use(p.sessionId, (s) => acceptTurn(deps, s, { userId: p.userId, text, idempotencyKey: newId() }));
				const accepted = performance.now();
				runner.kick(p.sessionId);
				await runner.idle();
				const idle = performance.now();
				samples.push(analyse(probe, provider.calls.slice(callsBefore), started, cpuStarted, accepted, idle));
			}
			console.log(`  measured ${TURNS} turns (${label})`);
			return samples;
		};
		const withO200k = await measure('o200k', countTokensO200k);
		const withEstimate = await measure('estimator', estimateTokens);
		counter.use(countTokensO200k);

		const summarise = (xs: TurnSample[]) => ({
			total: latency(xs.map((x) => x.total)),
			cpu: latency(xs.map((x) => x.cpu)),
			overhead: latency(xs.map((x) => x.overhead)),
			accept: latency(xs.map((x) => x.accept)),
			provider: latency(xs.map((x) => x.provider)),
			tokenizer: latency(xs.map((x) => x.tokenizer)),
			writes: latency(xs.map((x) => x.writes)),
			writeMs: latency(xs.map((x) => x.writeMs)),
			after: latency(xs.filter((x) => !x.checkpoint).map((x) => x.after)),
			afterEmbed: latency(xs.filter((x) => !x.checkpoint).map((x) => x.afterEmbed)),
			afterCheckpoint: latency(xs.filter((x) => x.checkpoint).map((x) => x.after)),
			checkpoints: xs.filter((x) => x.checkpoint).length,
			withTool: latency(xs.filter((x) => x.toolCalls > 0).map((x) => x.overhead)),
			withoutTool: latency(xs.filter((x) => x.toolCalls === 0).map((x) => x.overhead))
		});
		const a = summarise(withO200k);
		const b = summarise(withEstimate);
		const row = (name: string, l: Latency, l2: Latency) => [name, ms(l.p50), ms(l.p95), ms(l.max), ms(l2.p50), ms(l2.p95), ms(l2.max)];
		const count = (name: string, l: Latency, l2: Latency) => [
			name,
			l.p50.toFixed(0),
			l.p95.toFixed(0),
			l.max.toFixed(0),
			l2.p50.toFixed(0),
			l2.p95.toFixed(0),
			l2.max.toFixed(0)
		];
		console.log(`\nper turn, ${TURNS} turns each (after ${HISTORY} committed turns):`);
		console.log(
			table(
				['', 'o200k p50', 'p95', 'max', 'estimator p50', 'p95', 'max'],
				[
					row('accept → committed', a.total, b.total),
					row('  of which provider', a.provider, b.provider),
					row('overhead (total − provider)', a.overhead, b.overhead),
					row('  CPU time of the process', a.cpu, b.cpu),
					row('  turns without a tool call', a.withoutTool, b.withoutTool),
					row('  turns with one tool call', a.withTool, b.withTool),
					row('  acceptTurn', a.accept, b.accept),
					row('  token counting', a.tokenizer, b.tokenizer),
					count('  write transactions (count)', a.writes, b.writes),
					row('  time in write transactions', a.writeMs, b.writeMs),
					row('committed → idle (no checkpoint)', a.after, b.after),
					row('  of which embedder', a.afterEmbed, b.afterEmbed),
					row(`committed → idle (checkpoint ran)`, a.afterCheckpoint, b.afterCheckpoint)
				]
			)
		);
		console.log(`checkpoints during the measured turns: ${a.checkpoints} (o200k), ${b.checkpoints} (estimator)`);
		console.log(
			`target p95 ≤ ${TARGET_P95_MS} ms: ${a.overhead.p95 <= TARGET_P95_MS ? 'met' : 'MISSED'} (o200k), ${b.overhead.p95 <= TARGET_P95_MS ? 'met' : 'MISSED'} \
(estimator)`
		);

		const profile = await sessions.use(p.sessionId, (s) => componentProfile(s, deps, p.userId, script));
		console.log(`\ncomponent profile on the same database (${REPS} repetitions each):`);
		console.log(
			table(
				['step', 'p50', 'p95', 'max'],
				profile.map(([name, l]) => [name, ms(l.p50), ms(l.p95), ms(l.max)])
			)
		);

		const r = (l: Latency) => ({ p50: round(l.p50), p95: round(l.p95), max: round(l.max) });
		console.log(
			JSON.stringify({
				bench: 'turn',
				history: HISTORY,
				turns: TURNS,
				buildSeconds: round(buildSeconds, 1),
				database: counts,
				synchronous: SYNC_NORMAL ? 'NORMAL' : 'FULL (default)',
				usage: !args['no-usage'],
				o200k: {
					overhead: r(a.overhead),
					cpu: r(a.cpu),
					total: r(a.total),
					tokenizer: r(a.tokenizer),
					writes: r(a.writeMs),
					afterCommit: r(a.after),
					afterCommitEmbedder: r(a.afterEmbed),
					afterCheckpoint: r(a.afterCheckpoint)
				},
				estimator: { overhead: r(b.overhead), cpu: r(b.cpu), total: r(b.total), tokenizer: r(b.tokenizer), afterCommit: r(b.after) },
				targetP95Ms: TARGET_P95_MS,
				met: a.overhead.p95 <= TARGET_P95_MS,
				profile: Object.fromEntries(profile.map(([name, l]) => [name, r(l)]))
			})
		);
	} finally {
		await runner.stop();
		await sessions.closeAll();
		control.close();
		remove();
	}
}

/**
 * Reads one measured turn off the probe's timeline. The commit is the last bus notification after the
 * turn's last LLM call and before anything the runner does afterwards (embedding, a checkpoint).
 */
function analyse(probe: Probe, calls: CallRecord[], started: number, cpuStarted: number, accepted: number, idle: number): TurnSample {
	const llm = probe.marks.filter((m) => m.name === 'llm');
	const lastCall = llm.at(-1)?.at ?? accepted;
	const after = probe.marks.filter((m) => m.at > lastCall && (m.name === 'embed' || m.name === 'llm-checkpoint'));
	const boundary = after[0] ? after[0].at - after[0].ms : idle;
	const notifies = probe.marks.filter((m) => m.name === 'notify' && m.at > lastCall && m.at <= boundary);
	const commitMark = notifies.at(-1);
	const committed = commitMark?.at ?? boundary;
	const playerCalls = calls.filter((c) => !c.kind.startsWith('checkpoint'));
	const providerMs = playerCalls.reduce((n, c) => n + c.ms, 0);
	const total = committed - started;
	const writes = probe.sum('write', -Infinity, committed);
	return {
		total,
		cpu: (commitMark?.cpu ?? cpuMs()) - cpuStarted,
		accept: accepted - started,
		provider: providerMs,
		overhead: total - providerMs,
		tokenizer: probe.sum('count', -Infinity, committed).ms,
		writes: writes.n,
		writeMs: writes.ms,
		after: idle - committed,
		afterEmbed: probe.sum('embed', committed, idle).ms,
		checkpoint: calls.some((c) => c.kind.startsWith('checkpoint')),
		toolCalls: playerCalls.length - 1
	};
}

interface Deps {
	config: Config;
	control: ControlDb;
}

/** Each building block of a turn, timed alone on the session the measured turns ran in. */
async function componentProfile(s: SessionDb, deps: Deps, userId: string, script: CampaignScript): Promise<[string, Latency][]> {
	const cfg = deps.config;
	const out: [string, Latency][] = [];
	const mission = (await readMission(s.db)) ?? '';
	const head = await loadHead(s.db, cfg);
	const history = await historySinceCheckpoint(s.db);
	const turn = script.turn(3);
	out.push(['readSettings + readMission', await timeIt(REPS, async () => [await readSettings(s.db, cfg), await readMission(s.db)])]);
	out.push(['loadHead (summary, toc, state, journal)', await timeIt(REPS, () => loadHead(s.db, cfg))]);
	out.push([`historySinceCheckpoint (${history.length} exchanges)`, await timeIt(REPS, () => historySinceCheckpoint(s.db))]);
	out.push(['checkpointDue (stored token counts)', await timeIt(REPS, () => checkpointDue(history, cfg.engine.memory, countTokensO200k))]);
	out.push([
		'buildContext + systemText',
		await timeIt(REPS, () => systemText(buildContext(mission, head, windowOf(history, cfg.engine.memory), turn.player)))
	]);
	out.push([
		`o200k: input + reply (${turn.player.length + turn.gm.length} chars)`,
		await timeIt(REPS, () => countTokensO200k(turn.player) + countTokensO200k(turn.gm))
	]);
	out.push(['estimator: input + reply', await timeIt(REPS, () => estimateTokens(turn.player) + estimateTokens(turn.gm))]);
	const who = { userId, sessionId: s.id, turnId: 'bench' };
	const limits = { ...cfg.engine.budget, maxToolRounds: cfg.engine.maxToolRounds };
	out.push(['loadScopes (control DB, 4 reads)', await timeIt(REPS, () => loadScopes(deps.control.db, who, limits, Date.now()))]);
	out.push(['recordCall (control DB write, committed)', await timeIt(REPS, () => recordCall(deps.control.db, who, 0, Date.now()))]);
	out.push([
		'write transaction changing nothing',
		await timeIt(REPS, () => s.write(async (tx) => tx.run(sql`UPDATE meta SET value = value WHERE key = 'language'`)))
	]);
	out.push([
		'one-row write transaction, committed (durable)',
		await timeIt(REPS, (i) => s.write(async (tx) => tx.run(sql`INSERT OR REPLACE INTO meta (key, value) VALUES ('bench', ${String(i)})`)))
	]);
	out.push([
		`log.append player + GM reply (${turn.player.length} + ${turn.gm.length} chars: sections, FTS, embed queue; rolled back)`,
		await timeIt(REPS, () =>
			rolledBack(s, async (tx) => {
				await log.append(tx, { role: 'player', body: turn.player, turnId: 'bench' });
				await log.append(tx, { role: 'gm', body: turn.gm, turnId: 'bench' });
			})
		)
	]);
	out.push([
		'appendEvent (rolled back)',
		await timeIt(REPS, () => rolledBack(s, (tx) => appendEvent(tx, { type: 'text.delta', turnId: 'bench', text: turn.gm })))
	]);
	out.push([
		'staged journal_append, nothing staged before (speculation)',
		await timeIt(REPS, () => new Staging(s).write((tx) => journal.append(tx, { body: 'Bench entry.' })))
	]);
	const fourth: number[] = [];
	for (let r = 0; r < Math.ceil(REPS / 4); r++) {
		const st = new Staging(s);
		for (let i = 0; i < 3; i++) await st.write((tx) => journal.append(tx, { body: `Bench entry ${i}.` }));
		const started = performance.now();
		await st.write((tx) => journal.append(tx, { body: 'Bench entry 4.' }));
		fourth.push(performance.now() - started);
	}
	out.push(['staged journal_append with 3 staged before', latency(fourth)]);
	const [{ n } = { n: 0 }] = await s.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sessionSchema.turns}`);
	out.push([
		`select turns by status (${n} turns)`,
		await timeIt(REPS, () => s.db.all(sql`SELECT id FROM turns WHERE status IN ('accepted', 'running') ORDER BY created_at LIMIT 1`))
	]);
	return out;
}

main().catch((err: unknown) => {
	console.error(err);
	process.exitCode = 1;
});

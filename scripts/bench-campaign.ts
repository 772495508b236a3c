/**
 * npm run bench:campaign [-- --turns N] [--checkpoint-tokens T] [--window N] [--window-tokens W] [--context-tokens C]
 *                          [--budget-usd X] [--around T]
 *
 * Plays a scripted campaign (default 500 player turns) through the real engine and runner, on a real
 * session database, with an instant in-process scripted GM (scripts/bench-lib). Facts are planted in
 * GM replies at turns 1, 100, 500 and 900 (scripts/bench-lib/facts.ts; those before the last turn),
 * and at the last turn the scripted GM asks for each with its `recall` tool: the bench reports which
 * came back in the top 5. Records the input
 * tokens of every LLM call (system + messages counted with the production o200k tokenizer; the tool
 * schemas, identical in every call, are reported apart) and compares them with what a naive harness
 * would send at each turn: mission + every previous exchange + the input. Checkpoints run as
 * configured. Costs come from the engine's own ledger and the default price table.
 *
 * It also counts every request whole (the tools array as the OpenAI wire sends it included) against
 * KANTERA_CONTEXT_TOKENS (`--context-tokens`) with the reply's cap, reports the player calls around turn
 * `--around` (110), and has the scripted GM report cached input as OpenAI does (scripts/bench-lib/prefix-cache.ts).
 * Not a test: figures go to docs/performance.md.
 */
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/lib/server/app';
import { countTokensO200k } from '../src/lib/server/context-window';
import { sessionSchema } from '../src/lib/server/db';
import { readMission } from '../src/lib/server/session-setup';
import { priceFor } from '../src/lib/server/budget';
import { CampaignScript } from './bench-lib/campaign-script';
import { FACT_TOP_K, PLANTED_FACTS } from './bench-lib/facts';
import { ScriptedProvider, requestTexts, trailingToolResults, type CallKind } from './bench-lib/scripted-provider';
import { BENCH_MODEL, benchConfig, player, seedSession, tempDataDir } from './bench-lib/setup';
import { mean, round, spread, table } from './bench-lib/stats';
import { PrefixCache } from './bench-lib/prefix-cache';
import { ceilingJson, ceilingReport, printCeilingReport, wireTools, type CeilingSample } from './bench-lib/ceiling-report';

const { values: args } = parseArgs({
	options: {
		turns: { type: 'string', default: '500' },
		'checkpoint-tokens': { type: 'string', default: '6000' },
		window: { type: 'string', default: '8' },
		/** KANTERA_WINDOW_TOKENS and KANTERA_CONTEXT_TOKENS; unset: the app's defaults. */
		'window-tokens': { type: 'string' },
		'context-tokens': { type: 'string' },
		/** The player calls around this turn are reported apart (issue 26 asks for turn ~110). */
		around: { type: 'string', default: '110' },
		'budget-usd': { type: 'string', default: '5' },
		bucket: { type: 'string', default: '50' },
		/** The flatness check looks at this many last calls. */
		last: { type: 'string', default: '100' }
	}
});
const TURNS = Number(args.turns);
const BUCKET = Number(args.bucket);
const LAST = Number(args.last);
const BUDGET_USD = args['budget-usd'];
/** Warn at 80 % of the session budget, as an operator would. */
const WARN_FRACTION = 0.8;
/** The flatness target: the last player calls within ±25 % of their mean. */
const FLAT_TOLERANCE = 0.25;
const FLAT_LABEL = `±${FLAT_TOLERANCE * 100} %`;

const RecallHit = v.object({ kind: v.string(), recordId: v.number(), path: v.string(), snippet: v.string() });
const RecallOutput = v.object({ hits: v.array(RecallHit) });

interface Sample {
	call: number;
	turn: number;
	kind: CallKind;
	system: number;
	messages: number;
	/** system + messages: what the harness chose to send (tool schemas excluded, they are constant). */
	input: number;
}

const count = (texts: readonly string[]) => texts.reduce((n, t) => n + countTokensO200k(t), 0);

async function main() {
	const { dir, remove } = tempDataDir('kantera-bench-campaign-');
	const env = {
		KANTERA_CHECKPOINT_TOKENS: args['checkpoint-tokens'],
		KANTERA_WINDOW_EXCHANGES: args.window,
		KANTERA_BUDGET_SESSION_USD: BUDGET_USD,
		KANTERA_BUDGET_SESSION_WARN_USD: String(Number(BUDGET_USD) * WARN_FRACTION),
		...(args['window-tokens'] ? { KANTERA_WINDOW_TOKENS: args['window-tokens'] } : {}),
		...(args['context-tokens'] ? { KANTERA_CONTEXT_TOKENS: args['context-tokens'] } : {})
	};
	const cfg = benchConfig(dir, env);
	const facts = PLANTED_FACTS.filter((f) => f.turn < TURNS);
	const script = new CampaignScript(undefined, { facts, askAt: TURNS });
	for (const f of facts)
		if (script.turn(f.turn).language !== f.language)
			throw new Error(`fact at turn ${f.turn} is written in ${f.language}, but that turn is played in ${script.turn(f.turn).language}`);
	const samples: Sample[] = [];
	const whole: CeilingSample[] = [];
	const cache = new PrefixCache(countTokensO200k);
	let toolTokens = 0;
	let wireToolTokens = 0;
	/** Every tool result the engine sent back (each seen once: in the request that follows its round), and the errors among them. */
	const toolResults = { calls: 0, errors: [] as string[] };
	const provider = new ScriptedProvider(script, {
		countInput: (req) => {
			if (toolTokens === 0) toolTokens = countTokensO200k(JSON.stringify(req.tools));
			return count(requestTexts(req)) + toolTokens;
		},
		countOutput: countTokensO200k,
		cachedInput: (req) => cache.cachedTokens(req),
		observe: (req, call) => {
			if (wireToolTokens === 0) wireToolTokens = countTokensO200k(wireTools(req));
			whole.push({
				turn: call.turn,
				kind: call.kind,
				whole: call.inputTokens - toolTokens + wireToolTokens,
				maxOutput: req.maxOutputTokens ?? 0,
				cached: call.cachedInputTokens
			});
			for (const r of trailingToolResults(req)) {
				toolResults.calls++;
				if (r.isError === true) toolResults.errors.push(`turn ${call.turn} ${r.content}`);
			}
			const system = countTokensO200k(req.system);
			samples.push({
				call: samples.length + 1,
				turn: call.turn,
				kind: call.kind,
				system,
				messages: call.inputTokens - toolTokens - system,
				input: call.inputTokens - toolTokens
			});
		}
	});
	const app = await createApp(cfg, { provider: () => provider, countTokens: countTokensO200k });
	const started = performance.now();
	try {
		const p = player(app);
		await app.sessions.create(p.sessionId);
		const mission = await app.sessions.use(p.sessionId, (s) => seedSession(s));
		console.log(
			`campaign bench: ${TURNS} player turns, KANTERA_CHECKPOINT_TOKENS=${cfg.engine.memory.checkpointTokens}, \
KANTERA_WINDOW_EXCHANGES=${cfg.engine.memory.windowExchanges}, model ${BENCH_MODEL}, \
KANTERA_BUDGET_SESSION_USD=${BUDGET_USD}, Node ${process.version}`
		);
		for (let i = 1; i <= TURNS; i++) {
			provider.current = i;
			await p.play(script.turn(i).player);
			if (i % 100 === 0)
				console.log(`  ${i} turns, ${provider.checkpoints} checkpoints, ${((performance.now() - started) / 1000).toFixed(1)} s`);
		}

		// The naive harness: mission + all previous exchanges + the input, same script, same tokenizer.
		const storedMission = (await app.sessions.use(p.sessionId, (s) => readMission(s.db))) ?? mission;
		const missionTokens = countTokensO200k(storedMission);
		const naive: number[] = [];
		const inputTokens: number[] = [];
		const exchangeTokens: number[] = [];
		let history = 0;
		for (let i = 1; i <= TURNS; i++) {
			const t = script.turn(i);
			inputTokens.push(countTokensO200k(t.player));
			exchangeTokens.push(countTokensO200k(t.player) + countTokensO200k(t.gm));
			naive.push(missionTokens + history + (inputTokens.at(-1) ?? 0));
			history += exchangeTokens.at(-1) ?? 0;
		}

		const { ledgerMicros, warnings, stopped, checkpointTurns } = await app.sessions.use(p.sessionId, async (s) => {
			const [l] = await s.db.select({ n: sql<number>`coalesce(sum(${sessionSchema.ledger.costMicros}), 0)` }).from(sessionSchema.ledger);
			const [w] = await s.db
				.select({ n: sql<number>`count(*)` })
				.from(sessionSchema.events)
				.where(sql`${sessionSchema.events.type} = 'budget.warning'`);
			const [st] = await s.db
				.select({ n: sql<number>`count(*)` })
				.from(sessionSchema.turns)
				.where(sql`${sessionSchema.turns.stopped} IS NOT NULL`);
			const [cp] = await s.db
				.select({ n: sql<number>`count(*)` })
				.from(sessionSchema.turns)
				.where(sql`${sessionSchema.turns.kind} = 'checkpoint' AND ${sessionSchema.turns.status} = 'committed'`);
			return { ledgerMicros: l?.n ?? 0, warnings: w?.n ?? 0, stopped: st?.n ?? 0, checkpointTurns: cp?.n ?? 0 };
		});

		// The planted facts: where each was said (its play-log message) and where the GM's recall put it.
		const factRows = await app.sessions.use(p.sessionId, async (s) =>
			Promise.all(
				facts.map(async (f) => {
					const said = await s.db
						.select({ id: sessionSchema.logMessages.id })
						.from(sessionSchema.logMessages)
						.where(sql`instr(${sessionSchema.logMessages.body}, ${f.answer}) > 0`);
					const asked = provider.toolExchanges.find(
						(x) => x.turn === TURNS && x.name === 'recall' && x.arguments.includes(JSON.stringify(f.query))
					);
					const parsed = asked ? v.safeParse(RecallOutput, safeJson(asked.content)) : undefined;
					const hits = parsed?.success ? parsed.output.hits : [];
					const ids = new Set(said.map((r) => r.id));
					const rank = hits.findIndex((h) => h.kind === 'log' && ids.has(h.recordId)) + 1;
					return { ...f, messages: [...ids], rank, top: hits.slice(0, FACT_TOP_K).map((h) => h.path) };
				})
			)
		);
		const elapsed = (performance.now() - started) / 1000;

		// Series.
		const firstCalls = samples.filter((x) => x.kind === 'player');
		const rows: (string | number)[][] = [];
		for (let from = 1; from <= TURNS; from += BUCKET) {
			const to = Math.min(TURNS, from + BUCKET - 1);
			const all = samples.filter((x) => x.turn >= from && x.turn <= to).map((x) => x.input);
			const first = firstCalls.filter((x) => x.turn >= from && x.turn <= to).map((x) => x.input);
			const nv = naive.slice(from - 1, to);
			rows.push([
				`${from}–${to}`,
				all.length,
				Math.min(...all),
				Math.round(mean(all)),
				Math.max(...all),
				Math.min(...first),
				Math.round(mean(first)),
				Math.max(...first),
				Math.round(mean(nv))
			]);
		}
		console.log('\ninput tokens per LLM call (system + messages, o200k), by 50-turn bucket:');
		console.log(table(['turns', 'calls', 'all min', 'all mean', 'all max', 'player min', 'player mean', 'player max', 'naive mean'], rows));

		const lastAll = spread(samples.slice(-LAST).map((x) => x.input));
		const lastPlayer = spread(firstCalls.slice(-LAST).map((x) => x.input));
		const lastNonCheckpoint = spread(
			samples
				.filter((x) => !x.kind.startsWith('checkpoint'))
				.slice(-LAST)
				.map((x) => x.input)
		);
		const lastCheckpoint = samples
			.filter((x) => x.kind.startsWith('checkpoint'))
			.slice(-10)
			.map((x) => x.input);
		const windowPart = spread(firstCalls.slice(-LAST).map((x) => x.messages));
		const systemPart = spread(firstCalls.slice(-LAST).map((x) => x.system));
		const flat = (s: ReturnType<typeof spread>) => s.belowMean <= FLAT_TOLERANCE && s.aboveMean <= FLAT_TOLERANCE;
		const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
		const describe = (name: string, s: ReturnType<typeof spread>) =>
			`  ${name.padEnd(34)} n=${s.n}  min ${s.min}  mean ${Math.round(s.mean)}  max ${s.max}  (−${pct(s.belowMean)} / +${pct(s.aboveMean)} of mean) ${
				flat(s)
					? `within ${FLAT_LABEL}`
					: `NOT \
within ${FLAT_LABEL}`
			}`;
		console.log(`\nlast ${LAST} calls:`);
		console.log(describe('all calls', lastAll));
		console.log(describe('player calls (no checkpoint calls)', lastNonCheckpoint));
		console.log(describe(`first call of the last ${LAST} turns`, lastPlayer));
		console.log(
			`  of which system (mission + head): min ${systemPart.min} max ${systemPart.max}; messages (window + input): min ${windowPart.min} max ${windowPart.max}`
		);
		console.log(
			`  checkpoint calls (last ${lastCheckpoint.length}): min ${Math.min(...lastCheckpoint)} max ${Math.max(...lastCheckpoint)}`
		);
		const withSchemas = spread(
			samples
				.filter((x) => !x.kind.startsWith('checkpoint'))
				.slice(-LAST)
				.map((x) => x.input + toolTokens)
		);
		console.log(describe('player calls + tool schemas', withSchemas));

		const finalActual = firstCalls.find((x) => x.turn === TURNS)?.input ?? Number.NaN;
		const finalNaive = naive.at(-1) ?? Number.NaN;
		const actualTotal = samples.reduce((n, x) => n + x.input + toolTokens, 0);
		// The naive harness makes the same player calls (no checkpoints), each with the full history.
		const naiveTotal = samples
			.filter((x) => !x.kind.startsWith('checkpoint'))
			.reduce((n, x) => n + (naive[x.turn - 1] ?? 0) + toolTokens, 0);
		const price = priceFor(cfg.engine.prices, BENCH_MODEL);
		const naiveUsd = (naiveTotal * (price?.input ?? 0)) / 1_000_000;
		// The naive harness writes the same replies: its output costs what the harness's player calls cost.
		const playerOutput = provider.calls.filter((c) => !c.kind.startsWith('checkpoint')).reduce((n, c) => n + c.outputTokens, 0);
		const naiveTotalUsd = naiveUsd + (playerOutput * (price?.output ?? 0)) / 1_000_000;
		console.log(
			`\nturn ${TURNS}: harness sends ${finalActual} tokens, naive full history ${finalNaive}: ratio ${(finalNaive / finalActual).toFixed(1)}×`
		);
		console.log(`tool schemas add ${toolTokens} tokens to every call (both harnesses)`);
		const usd = ledgerMicros / 1_000_000;
		console.log(
			`cost (engine ledger, ${BENCH_MODEL} default prices, cached input at its price): $${usd.toFixed(3)} for ${samples.length} calls; \
budget $${BUDGET_USD} (warn at \
$${(Number(BUDGET_USD) * WARN_FRACTION).toFixed(2)}): ${warnings} \
warnings, ${stopped} stopped \
turns`
		);
		console.log(
			`input tokens over the campaign (tool schemas included): harness ${actualTotal}, naive ${naiveTotal} (its input alone: $${naiveUsd.toFixed(2)})`
		);
		console.log(
			`cost: harness $${usd.toFixed(2)} (checkpoints included) vs full-history baseline $${naiveTotalUsd.toFixed(2)}: ${(naiveTotalUsd / usd).toFixed(1)}× cheaper`
		);
		if (factRows.length > 0) {
			console.log(`\nfacts planted in GM replies, asked for at turn ${TURNS} with recall (top ${FACT_TOP_K}):`);
			for (const f of factRows)
				console.log(
					`  turn ${String(f.turn).padStart(4)} ${f.kind.padEnd(6)} ${f.language} ${JSON.stringify(f.query)} → ${
						f.rank > 0 && f.rank <= FACT_TOP_K
							? `found at \
rank ${f.rank}`
							: 'NOT in the top 5'
					} (message \
#${f.messages.join(', #')}; top: ${f.top.join(' | ')})`
				);
		}
		const contextTokens = args['context-tokens'] && /^\d+$/.test(args['context-tokens']) ? Number(args['context-tokens']) : undefined;
		const ceiling = ceilingReport(whole, { ceiling: contextTokens, around: Number(args.around), bucket: BUCKET, last: LAST });
		printCeilingReport(ceiling, FLAT_TOLERANCE);
		console.log(`tool calls: ${toolResults.calls}, tool errors: ${toolResults.errors.length}`);
		for (const e of toolResults.errors.slice(0, 5)) console.log(`  ${e.replace(/\s+/g, ' ').slice(0, 200)}`);
		console.log(`${checkpointTurns} checkpoints in ${provider.checkpoints} parts; ${elapsed.toFixed(1)} s wall`);

		console.log(
			JSON.stringify({
				bench: 'campaign',
				turns: TURNS,
				calls: samples.length,
				checkpoints: checkpointTurns,
				/** Checkpoint requests' first calls: one per part of a checkpoint written in parts. */
				checkpointParts: provider.checkpoints,
				checkpointTokens: cfg.engine.memory.checkpointTokens,
				windowExchanges: cfg.engine.memory.windowExchanges,
				toolSchemaTokens: toolTokens,
				windowTokens: args['window-tokens'] ?? null,
				contextTokens: args['context-tokens'] ?? null,
				whole: ceilingJson(ceiling),
				lastCalls: {
					all: roundSpread(lastAll),
					player: roundSpread(lastNonCheckpoint),
					firstCallPerTurn: roundSpread(lastPlayer),
					playerWithSchemas: roundSpread(withSchemas)
				},
				flat: { all: flat(lastAll), player: flat(lastNonCheckpoint) },
				finalTurn: { harness: finalActual, naive: finalNaive, ratio: round(finalNaive / finalActual, 1) },
				totals: { harness: actualTotal, naive: naiveTotal, naiveInputUsd: round(naiveUsd, 2), naiveUsd: round(naiveTotalUsd, 2) },
				facts: factRows.map((f) => ({ turn: f.turn, kind: f.kind, rank: f.rank, found: f.rank > 0 && f.rank <= FACT_TOP_K })),
				costUsd: round(usd, 4),
				budgetUsd: Number(BUDGET_USD),
				budgetWarnings: warnings,
				stoppedTurns: stopped,
				toolCalls: toolResults.calls,
				toolErrors: toolResults.errors.length,
				wallSeconds: round(elapsed, 1)
			})
		);
	} finally {
		await app.close();
		remove();
	}
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function roundSpread(s: ReturnType<typeof spread>) {
	return { n: s.n, min: s.min, mean: Math.round(s.mean), max: s.max, belowMean: round(s.belowMean), aboveMean: round(s.aboveMean) };
}

main().catch((err: unknown) => {
	console.error(err);
	process.exitCode = 1;
});

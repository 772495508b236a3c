/**
 * What bench:campaign reports of the context ceiling and the prompt cache (issue 26): every request counted
 * whole, the tool schemas as the OpenAI wire sends them included, against the ceiling with the reply's cap;
 * the requests around a given turn; the cached share of the input, per call and over the campaign.
 */
import type { LlmRequest } from '../../src/lib/server/llm';
import type { CallKind } from './scripted-provider';
import { mean, round, spread, table, type Spread } from './stats';

export interface CeilingSample {
	turn: number;
	kind: CallKind;
	/** o200k tokens of the request as sent: system, messages, tool calls and the tools array (OpenAI wire). */
	whole: number;
	/** The reply's cap the request asked for. */
	maxOutput: number;
	cached: number;
}

/** The tools array as the OpenAI wire sends it. */
export function wireTools(req: LlmRequest): string {
	return JSON.stringify(
		req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }))
	);
}

export interface CeilingReport {
	ceiling: number | undefined;
	largest: number;
	largestWithReply: number;
	over: number;
	checkpointLargest: number;
	around: { from: number; to: number; player: Spread | undefined };
	cache: { share: number; playerShare: number; byBucket: { turns: string; share: number }[] };
	flatWithTools: Spread;
}

/** `ceiling`: KANTERA_CONTEXT_TOKENS as a bare number, when the run set one. */
export function ceilingReport(
	samples: readonly CeilingSample[],
	o: { ceiling?: number; around: number; bucket: number; last: number }
): CeilingReport {
	const withReply = (s: CeilingSample) => s.whole + s.maxOutput;
	const checkpoints = samples.filter((s) => s.kind.startsWith('checkpoint'));
	const players = samples.filter((s) => !s.kind.startsWith('checkpoint'));
	const near = players.filter((s) => s.kind === 'player' && Math.abs(s.turn - o.around) <= 10);
	const share = (xs: readonly CeilingSample[]) =>
		xs.reduce((n, s) => n + s.cached, 0) /
		Math.max(
			1,
			xs.reduce((n, s) => n + s.whole, 0)
		);
	const last = Math.max(...samples.map((s) => s.turn));
	const byBucket: { turns: string; share: number }[] = [];
	for (let from = 1; from <= last; from += o.bucket) {
		const to = Math.min(last, from + o.bucket - 1);
		byBucket.push({ turns: `${from}–${to}`, share: round(share(samples.filter((s) => s.turn >= from && s.turn <= to)), 3) });
	}
	return {
		ceiling: o.ceiling,
		largest: Math.max(...samples.map((s) => s.whole)),
		largestWithReply: Math.max(...samples.map(withReply)),
		over: o.ceiling === undefined ? 0 : samples.filter((s) => withReply(s) > (o.ceiling ?? Infinity)).length,
		checkpointLargest: checkpoints.length ? Math.max(...checkpoints.map((s) => s.whole)) : 0,
		around: { from: o.around - 10, to: o.around + 10, player: near.length ? spread(near.map((s) => s.whole)) : undefined },
		cache: { share: round(share(samples), 3), playerShare: round(share(players), 3), byBucket },
		flatWithTools: spread(players.slice(-o.last).map((s) => s.whole))
	};
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

export function printCeilingReport(r: CeilingReport, flatTolerance: number): void {
	console.log('\nwhole requests (o200k: system, messages, tool calls and the tools array as the OpenAI wire sends it):');
	console.log(
		`  largest ${r.largest}; with the reply's cap ${r.largestWithReply}${
			r.ceiling === undefined ? '' : `; ceiling ${r.ceiling}: ${r.over} request${r.over === 1 ? '' : 's'} over it`
		}; largest checkpoint request ${r.checkpointLargest}`
	);
	const a = r.around.player;
	if (a)
		console.log(`  player calls at turns ${r.around.from}–${r.around.to}: n=${a.n} min ${a.min} mean ${Math.round(a.mean)} max ${a.max}`);
	const f = r.flatWithTools;
	const flat = f.belowMean <= flatTolerance && f.aboveMean <= flatTolerance;
	console.log(
		`  last ${f.n} player calls: min ${f.min} mean ${Math.round(f.mean)} max ${f.max} (−${pct(f.belowMean)} / +${pct(f.aboveMean)} of mean) ${
			flat ? 'within' : 'NOT within'
		} ±${flatTolerance * 100} %`
	);
	console.log(`\nprompt cache (longest prefix shared with the previous request, 128-token blocks from 1,024, as OpenAI reports it):`);
	console.log(`  cached share of all input ${pct(r.cache.share)}, of player calls' ${pct(r.cache.playerShare)}`);
	console.log(
		table(
			['turns', 'cached share'],
			r.cache.byBucket.map((b) => [b.turns, pct(b.share)])
		)
	);
}

export function ceilingJson(r: CeilingReport) {
	const s = (x: Spread | undefined) =>
		x && { n: x.n, min: x.min, mean: Math.round(x.mean), max: x.max, belowMean: round(x.belowMean), aboveMean: round(x.aboveMean) };
	return {
		ceiling: r.ceiling ?? null,
		largestRequest: r.largest,
		largestWithReply: r.largestWithReply,
		overCeiling: r.over,
		largestCheckpointRequest: r.checkpointLargest,
		around: { turns: `${r.around.from}–${r.around.to}`, player: s(r.around.player) },
		lastPlayerCallsWhole: s(r.flatWithTools),
		cachedShare: r.cache.share,
		cachedSharePlayer: r.cache.playerShare,
		cachedShareByBucket: r.cache.byBucket,
		meanCachedShareOfBuckets: round(mean(r.cache.byBucket.map((b) => b.share)), 3)
	};
}

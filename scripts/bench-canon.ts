/**
 * bench:canon (issue 27): what the canon guard costs and how often it cries wolf.
 *
 * 1. False positives: the terms that fire on the official worlds' own texts (the editor's check), and
 *    on 1,000 scripted GM replies of ordinary play (the deterministic campaign of bench:campaign, English
 *    and Japanese), checked against every official world's canon in both languages, no secret revealed.
 * 2. The look-ahead's cost: each reply streamed in deltas of DELTA_CHARS characters every DELTA_MS (a
 *    vendor's cadence), through the guard and without it, in the same run. A delta's latency is from its
 *    arrival until its last character is released to the event log: the time the guard spends checking
 *    it (measured) plus the deltas it waits for while its ending could still spell a term (on the
 *    vendor's clock). The browser's paint comes after either and is the same for both.
 *
 * Usage: npm run bench:canon [-- --turns 1000]
 */
import { performance } from 'node:perf_hooks';
import { canonTerms, StreamCheck, TermMatcher, type CanonSource } from '../src/lib/canon';
import { wouldFire } from '../src/lib/presets/canon-scan';
import { formFromContent } from '../src/lib/presets/form';
import { getWorld, WORLD_IDS } from '../src/lib/server/worlds';
import { canonOfWorld } from '../src/lib/server/canon';
import { CampaignScript } from './bench-lib/campaign-script';
import { mean, percentile, round, table } from './bench-lib/stats';

const DELTA_CHARS = 6;
const DELTA_MS = 25;

const turnsArg = process.argv.indexOf('--turns');
const TURNS = turnsArg > 0 ? Number(process.argv[turnsArg + 1]) : 1000;

const LANGUAGES = ['en', 'ja'] as const;
const worlds = WORLD_IDS.flatMap((id) => LANGUAGES.map((language) => ({ id, language, world: getWorld(id, language) })));

// 1a. The worlds' own texts.
const ownRows = worlds.map(({ id, language, world }) => {
	const fired = wouldFire(formFromContent(world));
	const source = canonOfWorld(world);
	return [`${id} (${language})`, canonTerms(source).length, fired.length, fired.map((f) => `${f.term} in ${f.field}`).join('; ') || '—'];
});
console.log('Terms that fire on the official worlds’ own texts\n');
console.log(table(['world', 'terms', 'fired', 'where'], ownRows));

// 1b. Ordinary play against every canon.
const all: CanonSource = {
	secrets: worlds.flatMap(({ world }) => canonOfWorld(world).secrets),
	anachronisms: worlds.flatMap(({ world }) => canonOfWorld(world).anachronisms)
};
const matcher = new TermMatcher(canonTerms(all));
const script = new CampaignScript();
const replies = Array.from({ length: TURNS }, (_, i) => script.turn(i + 1).gm);
const falsePositives = replies.flatMap((reply, i) => matcher.findAll(reply).map((h) => `turn ${i + 1}: "${reply.slice(h.start, h.end)}"`));
console.log(`\nOrdinary play: ${TURNS} scripted GM replies against ${matcher.size} terms of all four canons`);
console.log(`false positives: ${falsePositives.length} (${round((100 * falsePositives.length) / TURNS)} % of replies)`);
for (const fp of falsePositives.slice(0, 10)) console.log(`  ${fp}`);

// 2. The look-ahead's cost.
function deltasOf(text: string): string[] {
	const chars = [...text];
	const out: string[] = [];
	for (let i = 0; i < chars.length; i += DELTA_CHARS) out.push(chars.slice(i, i + DELTA_CHARS).join(''));
	return out;
}

function streamLatencies(guarded: boolean): number[] {
	const latencies: number[] = [];
	for (const reply of replies) {
		const deltas = deltasOf(reply);
		const check = new StreamCheck(guarded ? matcher : new TermMatcher([]));
		/** Per delta: its arrival (vendor clock, ms), its end in the raw text, and the check's time so far. */
		const pending: { arrival: number; end: number; cpu: number }[] = [];
		let raw = 0;
		let released = 0;
		let cpu = 0;
		const settle = (now: number) => {
			while (pending[0] && pending[0].end <= released) {
				const d = pending.shift();
				if (d) latencies.push(now - d.arrival + (cpu - d.cpu));
			}
		};
		deltas.forEach((delta, i) => {
			raw += delta.length;
			pending.push({ arrival: i * DELTA_MS, end: raw, cpu });
			const started = performance.now();
			const step = check.push(delta);
			cpu += performance.now() - started;
			if ('release' in step) released += step.release.length;
			settle(i * DELTA_MS);
		});
		const step = check.end();
		if ('release' in step) released += step.release.length;
		settle(deltas.length * DELTA_MS);
	}
	return latencies;
}

function latency(xs: readonly number[]) {
	const max = xs.reduce((m, x) => Math.max(m, x), 0);
	return { p50: percentile(xs, 50), p95: percentile(xs, 95), max, mean: mean(xs) };
}

// Warm both paths once, then measure them in the same run.
streamLatencies(true);
streamLatencies(false);
const without = latency(streamLatencies(false));
const withGuard = latency(streamLatencies(true));
console.log(`\nDelta → release latency, ${TURNS} replies in ${DELTA_CHARS}-character deltas every ${DELTA_MS} ms`);
console.log(
	table(
		['', 'p50 ms', 'p95 ms', 'max ms', 'mean ms'],
		[
			['without the guard', round(without.p50), round(without.p95), round(without.max), round(without.mean)],
			['with the guard', round(withGuard.p50), round(withGuard.p95), round(withGuard.max), round(withGuard.mean)],
			['added at p95', '', round(withGuard.p95 - without.p95), '', '']
		]
	)
);

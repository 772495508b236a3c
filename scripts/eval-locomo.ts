/**
 * npm run eval:locomo -- --data ../shared/data/locomo-dev/locomo-dev.json [--only conv-26,conv-30]
 *   [--keyword-only] [--meaning-weight X] [--sides] [--misses N] [--json FILE]
 *
 * Recall on LoCoMo's very long conversations, by the data set README's protocol: one play session per
 * conversation, each dialogue turn one play-log record (body `<speaker> said, "<text>"`, ref = dia_id)
 * written through the records API like any GM record, nothing else indexed. Every question goes
 * through `recall` exactly as the GM's tool calls it, with cut-offs off and k = 50, embedded with the
 * configured embedder (offline unless KANTERA_EMBEDDINGS says otherwise: see docs/performance.md for
 * a real endpoint). Prints R@5/10/25/50 overall and per category next to the two same-run lexical
 * anchors (scripts/eval-lib/anchors.ts), then how many unrelated questions (tests/fixtures/recall)
 * come back empty with the cut-offs on.
 *
 * The data is read where it lies and never copied; nothing derived from it is written to the repository.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { createApp } from '../src/lib/server/app';
import { parseConfig } from '../src/lib/server/config';
import { inArray } from 'drizzle-orm';
import { newId, sessionSchema, type SessionDb } from '../src/lib/server/db';
import { analyseQuery } from '../src/lib/server/search/query';
import { vectorSearch } from '../src/lib/server/search/vector-search';
import { log } from '../src/lib/server/records';
import { createEmbedder, embedPending, recall, type Embedder } from '../src/lib/server/search';
import { refreshContexts } from '../src/lib/server/search/context-queue';
import { LexicalAnchors } from './eval-lib/anchors';
import { CATEGORY_NAMES, CATEGORY_ORDER, loadLocomo, RECALL_KS, RecallTable, recallAt } from './eval-lib/locomo';

const { values: args } = parseArgs({
	options: {
		data: { type: 'string' },
		/** Comma-separated sample ids: evaluate only these conversations (for cross-validation). */
		only: { type: 'string' },
		'keyword-only': { type: 'boolean', default: false },
		/** Also rank with each side of the fusion alone (keyword lists; nearest vectors). */
		sides: { type: 'boolean', default: false },
		/** Override the embedder's fusion weight (for calibrating it). */
		'meaning-weight': { type: 'string' },
		/** Print this many questions where recall@10 lost to the strong anchor. */
		misses: { type: 'string', default: '0' },
		/** Also write the figures as JSON to this file (outside the repository). */
		json: { type: 'string' }
	}
});

const K = 50;
const ALL_SYSTEMS = ['recall', 'plain', 'strong', 'words', 'vectors'] as const;
type System = (typeof ALL_SYSTEMS)[number];
const LABEL: Record<System, string> = {
	recall: 'Kantera recall',
	plain: 'FTS5 BM25 (plain)',
	strong: 'FTS5 BM25 + context (strong)',
	words: 'recall without the meaning side',
	vectors: 'the meaning side alone (nearest vectors)'
};
/** With --sides, each side of the fusion alone too: fusion should not lose to either. */
const SYSTEMS: readonly System[] = args.sides ? ALL_SYSTEMS : ['recall', 'plain', 'strong'];
const newTables = (): Record<System, RecallTable> => ({
	recall: new RecallTable(),
	plain: new RecallTable(),
	strong: new RecallTable(),
	words: new RecallTable(),
	vectors: new RecallTable()
});

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'recall');
const Unrelated = v.object({ id: v.string(), query: v.string() });

function unrelatedQuestions(): string[] {
	return readFileSync(path.join(fixtures, 'unrelated.jsonl'), 'utf8')
		.split('\n')
		.filter((l) => l.trim() !== '')
		.map((l) => v.parse(Unrelated, JSON.parse(l)).query);
}

/** The meaning side alone: the question's nearest sections, no cut-offs. */
async function nearest(s: SessionDb, embedder: Embedder, question: string): Promise<(string | null)[]> {
	const [vector] = await embedder.embed([analyseQuery(question).text]);
	if (!vector) return [];
	const hits = await vectorSearch(s.db, vector, embedder.id, { includeGmOnly: true }, K);
	if (hits.length === 0) return [];
	const rows = await s.db
		.select({ id: sessionSchema.sections.id, ref: sessionSchema.sections.ref })
		.from(sessionSchema.sections)
		.where(
			inArray(
				sessionSchema.sections.id,
				hits.map((h) => h.id)
			)
		);
	const refOf = new Map(rows.map((r) => [r.id, r.ref]));
	return hits.map((h) => refOf.get(h.id) ?? null);
}

async function main() {
	if (!args.data) throw new Error('usage: npm run eval:locomo -- --data ../shared/data/locomo-dev/locomo-dev.json');
	const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : undefined;
	const conversations = loadLocomo(args.data).filter((c) => !only || only.has(c.id));
	if (conversations.length === 0) throw new Error(`no conversation matches --only ${args.only ?? ''}`);

	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-locomo-'));
	const cfg = parseConfig({ ...process.env, KANTERA_DATA_DIR: dir });
	const base = createEmbedder(cfg.embeddings);
	const embedder: Embedder =
		args['meaning-weight'] === undefined
			? base
			: {
					id: base.id,
					dimensions: base.dimensions,
					fusionWeight: Number(args['meaning-weight']),
					...(base.similarityFloor === undefined ? {} : { similarityFloor: base.similarityFloor }),
					embed: (t, sig) => base.embed(t, sig)
				};
	const app = await createApp(cfg);
	const tables = newTables();
	const misses: string[] = [];
	const unrelated = unrelatedQuestions();
	const emptyUnrelated: number[] = [];
	const latencies: number[] = [];
	console.log(
		`LoCoMo recall: ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.questions.length, 0)} questions, k = ${K}, cut-offs off; ` +
			(args['keyword-only']
				? 'keyword only'
				: `embedder ${embedder.id} (${embedder.dimensions} dims, fusion weight ${embedder.fusionWeight ?? 'default'})`)
	);
	try {
		for (const conv of conversations) {
			const started = performance.now();
			const anchors = await LexicalAnchors.build(conv.turns);
			const own = newTables();
			await app.sessions.use(newId(), async (s) => {
				const speakers = [...new Set(conv.turns.map((t) => t.speaker))];
				// One conversation partner plays the player, the other the GM; the speaker is not indexed
				// beyond what the body says (the protocol indexes the body only).
				await s.write(async (tx) => {
					for (const t of conv.turns) await log.append(tx, { role: t.speaker === speakers[0] ? 'player' : 'gm', body: t.body, ref: t.ref });
				});
				// After the writes, as the turn runner does after a commit: neighbour contexts, then vectors.
				if (args['keyword-only']) while ((await refreshContexts(s)) > 0);
				else await embedPending(s, embedder, { maxBatches: Number.POSITIVE_INFINITY });
				const options = { k: K, includeGmOnly: true, cutoff: false, embedder: args['keyword-only'] ? undefined : embedder };
				for (const q of conv.questions) {
					const t0 = performance.now();
					const ranked: Record<System, (string | null)[]> = {
						recall: (await recall(s.db, q.question, options)).map((h) => h.ref),
						plain: await anchors.search('plain', q.question, K),
						strong: await anchors.search('strong', q.question, K),
						words: args.sides ? (await recall(s.db, q.question, { ...options, embedder: undefined })).map((h) => h.ref) : [],
						vectors: args.sides && !args['keyword-only'] ? await nearest(s, embedder, q.question) : []
					};
					latencies.push(performance.now() - t0);
					for (const system of SYSTEMS) {
						tables[system].add(q.category, q.evidence, ranked[system]);
						own[system].add(q.category, q.evidence, ranked[system]);
					}
					if (recallAt(q.evidence, ranked.recall, 10) < recallAt(q.evidence, ranked.strong, 10))
						misses.push(
							`  [${conv.id} ${CATEGORY_NAMES[q.category] ?? q.category}] ${q.question} — want ${q.evidence.join(',')}; got ${ranked.recall.slice(0, 10).join(',')}`
						);
				}
				let empty = 0;
				for (const u of unrelated)
					if ((await recall(s.db, u, { includeGmOnly: true, embedder: args['keyword-only'] ? undefined : embedder })).length === 0) empty++;
				emptyUnrelated.push(empty);
			});
			anchors.close();
			const r10 = (sys: System) => (own[sys].row('all')?.at[1] ?? 0).toFixed(1);
			console.log(
				`  ${conv.id}: ${conv.turns.length} turns, ${conv.questions.length} questions; R@10 \
recall ${r10('recall')}, strong ${r10('strong')}, plain ${r10('plain')} (${((performance.now() - started) / 1000).toFixed(1)} s)`
			);
		}
	} finally {
		await app.close();
		rmSync(dir, { recursive: true, force: true });
	}

	const groups: [string, string][] = [
		['all', 'all'],
		...CATEGORY_ORDER.map((c): [string, string] => [String(c), `${CATEGORY_NAMES[c] ?? c} (${c})`])
	];
	const header = ['group', 'n', ...SYSTEMS.flatMap((sys) => RECALL_KS.map((k) => `${sys} @${k}`))];
	const rows = groups.flatMap(([key, name]) => {
		const n = tables.recall.row(key)?.n;
		if (n === undefined) return [];
		return [[name, String(n), ...SYSTEMS.flatMap((sys) => (tables[sys].row(key)?.at ?? []).map((x) => x.toFixed(1)))]];
	});
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
	const line = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
	console.log(`\nR@k in percent (${SYSTEMS.map((s) => `${s} = ${LABEL[s]}`).join('; ')}):`);
	console.log(line(header));
	for (const r of rows) console.log(line(r));

	const at10 = (sys: System, key: string) => tables[sys].row(key)?.at[1] ?? 0;
	const below = groups.filter(([key]) => tables.recall.row(key) && at10('recall', key) < at10('strong', key)).map(([, name]) => name);
	console.log(
		`\nR@10: recall ${at10('recall', 'all').toFixed(1)}, strong anchor ${at10('strong', 'all').toFixed(1)}, plain ${at10('plain', 'all').toFixed(1)}`
	);
	console.log(
		below.length === 0
			? 'recall is at or above the strong anchor in every category (R@10)'
			: `recall is BELOW the strong anchor (R@10) in: ${below.join(', ')}`
	);
	console.log(
		`unrelated questions answered with nothing (cut-offs on): ${emptyUnrelated.map((n) => `${n}/${unrelated.length}`).join(', ')} per conversation`
	);
	const sorted = [...latencies].sort((a, b) => a - b);
	const p50 = sorted[Math.floor(sorted.length / 2)]?.toFixed(1);
	const p95 = sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1);
	console.log(`per question (recall + both anchors): p50 ${p50} ms, p95 ${p95} ms`);
	const showMisses = Number(args.misses);
	if (showMisses > 0)
		console.log(`\nquestions where recall@10 < strong anchor (${misses.length}):\n${misses.slice(0, showMisses).join('\n')}`);
	if (args.json) {
		const out = Object.fromEntries(
			SYSTEMS.map((sys) => [sys, Object.fromEntries(groups.map(([key, name]) => [name, tables[sys].row(key)]))])
		);
		writeFileSync(
			args.json,
			JSON.stringify(
				{
					conversations: conversations.map((c) => c.id),
					k: K,
					embedder: embedder.id,
					keywordOnly: args['keyword-only'],
					figures: out,
					unrelatedEmpty: emptyUnrelated
				},
				null,
				2
			)
		);
	}
}

main().catch((err: unknown) => {
	console.error(err);
	process.exitCode = 1;
});

/**
 * npm run eval:recall [-- --k 10] [--no-cutoff] [--keyword-only] [--misses]
 *
 * Loads the retrieval fixture (tests/fixtures/recall) into a temporary session database, embeds it
 * with the configured embedder (the offline one unless KANTERA_EMBEDDINGS says otherwise) and reports
 * recall@5 and recall@10 per language and per query type, plus how many unrelated questions come back
 * empty. recall@k = mean over queries of (answers found in the top k) / (answers listed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { createApp } from '../src/lib/server/app';
import { LanguageSchema } from '../src/lib/types/settings';
import { parseConfig } from '../src/lib/server/config';
import { newId, sessionSchema } from '../src/lib/server/db';
import { createEmbedder, embedPending, recall, SECTION_KINDS, type Embedder } from '../src/lib/server/search';
import { analyseQuery } from '../src/lib/server/search/query';
import { vectorSearch } from '../src/lib/server/search/vector-search';

const { values: args } = parseArgs({
	options: {
		'no-cutoff': { type: 'boolean', default: false },
		'keyword-only': { type: 'boolean', default: false },
		misses: { type: 'boolean', default: false },
		similarities: { type: 'boolean', default: false },
		/** Override the embedder's similarity floor (for calibrating it). */
		floor: { type: 'string' }
	}
});

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'recall');
const Section = v.object({
	ref: v.string(),
	kind: v.picklist(SECTION_KINDS),
	path: v.string(),
	body: v.string(),
	gmOnly: v.optional(v.boolean(), false)
});
const Query = v.object({
	id: v.string(),
	lang: LanguageSchema,
	type: v.string(),
	query: v.string(),
	answers: v.pipe(v.array(v.string()), v.minLength(1))
});
const Unrelated = v.object({ id: v.string(), query: v.string() });

function jsonl<T extends v.GenericSchema>(file: string, schema: T): v.InferOutput<T>[] {
	return readFileSync(path.join(fixtures, file), 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line, i) => {
			const parsed = v.safeParse(schema, JSON.parse(line));
			if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.issues[0].message}`);
			return parsed.output;
		});
}

const KS = [5, 10] as const;

async function main() {
	const sections = jsonl('sections.jsonl', Section);
	const queries = jsonl('queries.jsonl', Query);
	const unrelated = jsonl('unrelated.jsonl', Unrelated);
	const known = new Set(sections.map((s) => s.ref));
	for (const q of queries) for (const a of q.answers) if (!known.has(a)) throw new Error(`${q.id}: unknown answer ref ${a}`);

	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-eval-'));
	const cfg = parseConfig({ ...process.env, KANTERA_DATA_DIR: dir });
	const base = createEmbedder(cfg.embeddings);
	const embedder: Embedder =
		args.floor === undefined
			? base
			: { id: base.id, dimensions: base.dimensions, similarityFloor: Number(args.floor), embed: (t, sig) => base.embed(t, sig) };
	const app = await createApp(cfg);
	try {
		await app.sessions.use(newId(), async (s) => {
			await s.write((tx) =>
				tx.insert(sessionSchema.sections).values(
					sections.map((sec, i) => ({
						kind: sec.kind,
						recordId: i + 1,
						ord: 0,
						path: sec.path,
						body: sec.body,
						gmOnly: sec.gmOnly,
						ref: sec.ref,
						contentHash: createHash('sha256').update(`${sec.path}\n${sec.body}`).digest('hex')
					}))
				)
			);
			await embedPending(s, embedder, { maxBatches: Number.POSITIVE_INFINITY });
			const options = {
				k: Math.max(...KS),
				includeGmOnly: true,
				cutoff: !args['no-cutoff'],
				embedder: args['keyword-only'] ? undefined : embedder
			};
			console.log(
				`recall eval: ${sections.length} sections, ${queries.length} queries, embedder ${embedder.id} (${embedder.dimensions} dims, \
floor ${embedder.similarityFloor})` + `${args['no-cutoff'] ? ', no cutoff' : ''}${args['keyword-only'] ? ', keyword only' : ''}`
			);

			const groups = new Map<string, { n: number; sums: number[] }>();
			const add = (key: string, scores: number[]) => {
				const g = groups.get(key) ?? { n: 0, sums: KS.map(() => 0) };
				g.n++;
				scores.forEach((x, i) => (g.sums[i] = (g.sums[i] ?? 0) + x));
				groups.set(key, g);
			};
			const misses: string[] = [];
			for (const q of queries) {
				const refs = (await recall(s.db, q.query, options)).map((h) => h.ref);
				const scores = KS.map((k) => q.answers.filter((a) => refs.slice(0, k).includes(a)).length / q.answers.length);
				add(q.lang, scores);
				add(`${q.lang} · ${q.type}`, scores);
				add('all', scores);
				if ((scores.at(-1) ?? 0) < 1)
					misses.push(`  ${q.id} ${JSON.stringify(q.query)} want ${q.answers.join(',')} got ${refs.slice(0, 5).join(',') || '(nothing)'}`);
			}
			const row = (key: string) => {
				const g = groups.get(key);
				if (!g) return;
				const cells = KS.map((k, i) => `recall@${k} ${((g.sums[i] ?? 0) / g.n).toFixed(3)}`).join('  ');
				console.log(`  ${key.padEnd(20)} n=${String(g.n).padStart(3)}  ${cells}`);
			};
			for (const key of ['ja', 'en', 'all']) row(key);
			console.log('by query type:');
			for (const key of [...groups.keys()].filter((k) => k.includes('·')).sort()) row(key);

			let empty = 0;
			const answered: string[] = [];
			for (const u of unrelated) {
				const hits = await recall(s.db, u.query, options);
				if (hits.length === 0) empty++;
				else answered.push(`  ${u.id} ${JSON.stringify(u.query)} got ${hits.map((h) => h.ref).join(',')}`);
			}
			console.log(`unrelated questions answered with nothing: ${empty}/${unrelated.length}`);
			if (args.misses && answered.length > 0) console.log(`unrelated questions that found something:\n${answered.join('\n')}`);
			if (args.misses) console.log(`not fully found in the top ${Math.max(...KS)}:\n${misses.join('\n')}`);

			if (args.similarities) {
				// Top meaning-side similarity per query: where related and unrelated questions fall, for the floor.
				const top = async (text: string) => {
					const [vec] = await embedder.embed([analyseQuery(text).text]);
					if (!vec) return 0;
					return (await vectorSearch(s.db, vec, embedder.id, { includeGmOnly: true }, 10))[0]?.similarity ?? 0;
				};
				const related = await Promise.all(queries.map((q) => top(q.query)));
				const unrelatedTop = await Promise.all(unrelated.map((u) => top(u.query)));
				const summary = (xs: number[]) => {
					const sorted = [...xs].sort((a, b) => a - b);
					const at = (p: number) => sorted[Math.floor(p * (sorted.length - 1))]?.toFixed(3);
					return `min ${at(0)} p10 ${at(0.1)} median ${at(0.5)} max ${at(1)}`;
				};
				console.log(`top similarity, fixture questions: ${summary(related)}`);
				console.log(`top similarity, unrelated questions: ${summary(unrelatedTop)}`);
			}
		});
	} finally {
		await app.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

await main();

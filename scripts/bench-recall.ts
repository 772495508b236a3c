/**
 * npm run bench:recall [-- --sections N] [--dims D] [--queries Q] [--log-share F]
 *
 * Builds a generated mixed Japanese/English campaign (default 50,000 sections, 1,024-dimension
 * vectors) in ONE session database and reports index build throughput and recall latency p50/p95
 * for keyword only, vector only and fused. The vectors come from a cheap deterministic embedder
 * (unit vectors scattered around topic centres): the point is the database cost, not their meaning.
 * Not a test: figures go to docs/performance.md.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../src/lib/server/app';
import { parseConfig } from '../src/lib/server/config';
import { newId, sessionSchema, type SessionDb } from '../src/lib/server/db';
import { embedPending, recall, type Embedder } from '../src/lib/server/search';
import { vectorSearch } from '../src/lib/server/search/vector-search';
import { createHash } from 'node:crypto';
import { prng } from './bench-lib/random';

const { values: args } = parseArgs({
	options: {
		sections: { type: 'string', default: '50000' },
		dims: { type: 'string', default: '1024' },
		queries: { type: 'string', default: '300' },
		topics: { type: 'string', default: '500' },
		/**
		 * Share of sections written as play-log sections (the rest are documents). Log sections carry
		 * their neighbours in the word index's context column and may be questions whose answer recall
		 * looks up, so they cost more to write and to rank than document sections.
		 */
		'log-share': { type: 'string', default: '0' },
		/** Keep the database in this directory and reuse it on the next run (for studying queries). */
		dir: { type: 'string' }
	}
});
const SECTIONS = Number(args.sections);
const DIMS = Number(args.dims);
const QUERIES = Number(args.queries);
const TOPICS = Number(args.topics);
const INSERT_BATCH = 1000;
const EMBED_BATCH = 256;
const RECALL_K = 8;
const LOG_SHARE = Number(args['log-share']);
/** Share of log lines that ask something (end in a question mark). */
const QUESTION_SHARE = 0.3;

let rnd = prng(42);
const pick = <T>(xs: readonly T[]): T => {
	const x = xs[Math.floor(rnd() * xs.length)];
	if (x === undefined) throw new Error('empty list');
	return x;
};
/** Zipf-ish: low indexes much more often, as names are in a real campaign. */
const pickSkewed = <T>(xs: readonly T[]): T => {
	const x = xs[Math.floor(xs.length * rnd() ** 2)];
	if (x === undefined) throw new Error('empty list');
	return x;
};

const KANJI = Array.from(
	'北南東西門塔森湖川橋城村街港丘谷岩石鉄銀金竜狼鷹月星灰黒白赤青古新神聖魔剣盾炎氷霧雪風雷影光闇王騎士鍛冶酒場宿薬草書庫庭泉井墓寺'
);
const KANA = Array.from('アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモラリルレロワン');
const EN_SYL = ['bra', 'mar', 'ed', 'rin', 'tha', 'lo', 'ven', 'dor', 'is', 'al', 'wyn', 'kel', 'tor', 'sa', 'mi', 'gar', 'eth', 'ul'];
const EN_NOUNS = [
	'gate',
	'tower',
	'forge',
	'tavern',
	'harbour',
	'bridge',
	'well',
	'temple',
	'market',
	'lighthouse',
	'mine',
	'library',
	'garden',
	'crypt',
	'mill',
	'barracks'
];
const EN_WORDS = [
	'guards',
	'hides',
	'remembers',
	'sells',
	'fears',
	'the old',
	'a stolen',
	'map',
	'sword',
	'lantern',
	'oath',
	'debt',
	'rumour',
	'letter',
	'key',
	'storm',
	'night',
	'silver',
	'smugglers',
	'queen',
	'merchant',
	'priest',
	'dragon',
	'wolf',
	'winter',
	'festival',
	'ship',
	'fever',
	'herb',
	'coin'
];
const JA_WORDS = [
	'を守っている',
	'に隠されている',
	'の噂を聞いた',
	'と取引している',
	'を恐れている',
	'の鍵を持つ',
	'で姿を消した',
	'へ手紙を送った',
	'に借りがある',
	'の祭りを待つ'
];

interface Topic {
	id: number;
	ja: boolean;
	/** Names that appear in this topic's sections (first is the main one). */
	names: string[];
	area: string;
}

function jaName(): string {
	if (rnd() < 0.5) return Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => pick(KANA)).join('');
	return Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(KANJI)).join('');
}
function enName(): string {
	const n = Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(EN_SYL)).join('');
	return n.charAt(0).toUpperCase() + n.slice(1);
}

const topics: Topic[] = Array.from({ length: TOPICS }, (_, id) => {
	const ja = id % 2 === 0;
	const names = Array.from({ length: 4 }, () => (ja ? jaName() : enName()));
	return { id, ja, names, area: ja ? `${pick(KANJI)}${pick(KANJI)}地方` : `${enName()} ${pick(EN_NOUNS)}` };
});

function body(t: Topic): string {
	const sentences = 3 + Math.floor(rnd() * 6);
	const out: string[] = [];
	for (let i = 0; i < sentences; i++) {
		const a = rnd() < 0.6 ? pick(t.names) : pickSkewed(pickSkewed(topics).names);
		if (t.ja)
			out.push(`${a}は${pick(t.names)}${pick(JA_WORDS)}。${rnd() < 0.3 ? `${pick(KANJI)}${pick(KANJI)}の件も気にかけている。` : ''}`);
		else out.push(`${a} ${pick(EN_WORDS)} ${pick(EN_WORDS)} near the ${pick(EN_NOUNS)} of ${pick(t.names)}.`);
	}
	return out.join(t.ja ? '' : ' ');
}

interface Section {
	topic: Topic;
	path: string;
	body: string;
}
function section(): Section {
	const topic = pickSkewed(topics);
	const heading = pick(topic.names);
	return { topic, path: `${topic.ja ? '世界' : 'World'} › ${topic.area} › ${heading}`, body: body(topic) };
}

/** Topic centre + noise, unit length. Deterministic in the text so re-embedding gives the same vector. */
class TopicEmbedder implements Embedder {
	readonly id = 'bench-topic-vectors';
	readonly similarityFloor = 0.3;
	private readonly centres = new Map<number, Float32Array>();
	private readonly byName = new Map<string, number>();
	constructor(readonly dimensions: number) {
		for (const t of topics) for (const n of t.names) this.byName.set(n.toLowerCase(), t.id);
	}
	private centre(topic: number): Float32Array {
		let c = this.centres.get(topic);
		if (!c) {
			const r = prng(topic + 1);
			c = Float32Array.from({ length: this.dimensions }, () => r() - 0.5);
			this.centres.set(topic, c);
		}
		return c;
	}
	async embed(texts: string[]): Promise<Float32Array[]> {
		return texts.map((text) => {
			// A section's topic is its area (second path segment); a query's is the first name it contains.
			const area = text.split('\n')[0]?.split(' › ')[1];
			const topic = topics.find((t) => t.area === area)?.id ?? [...this.byName].find(([n]) => text.toLowerCase().includes(n))?.[1] ?? 0;
			const seed = createHash('sha1').update(text).digest().readUInt32LE(0);
			const r = prng(seed);
			const c = this.centre(topic);
			const v = Float32Array.from(c, (x) => x + (r() - 0.5) * 0.6);
			let norm = 0;
			for (const x of v) norm += x * x;
			return v.map((x) => x / Math.sqrt(norm));
		});
	}
}

function percentile(xs: number[], p: number): number {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timeAll(queries: string[], fn: (q: string) => Promise<unknown>): Promise<number[]> {
	const out: number[] = [];
	for (const q of queries) {
		const t = performance.now();
		await fn(q);
		out.push(performance.now() - t);
	}
	return out;
}

async function main() {
	const dir = args.dir ? path.resolve(args.dir) : mkdtempSync(path.join(tmpdir(), 'kantera-bench-'));
	const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir }));
	// A fixed id when reusing: the same database is found again.
	const letters = (n: number) => [...String(n)].map((d) => 'abcdefghij'[Number(d)]).join('');
	const id = args.dir ? `bench${letters(SECTIONS)}x${letters(DIMS)}`.padEnd(20, 'z').slice(0, 20) : newId();
	const reuse = args.dir !== undefined && statSync(path.join(dir, 'sessions', `${id}.db`), { throwIfNoEntry: false }) !== undefined;
	const embedder = new TopicEmbedder(DIMS);
	try {
		if (!reuse) await app.sessions.create(id);
		await app.sessions.use(id, async (s: SessionDb) => {
			console.log(
				`recall bench: ${SECTIONS} sections (${Math.round(LOG_SHARE * 100)} % play log), ${DIMS}-dimension vectors, ${TOPICS} topics, Node ${process.version}`
			);
			let t = performance.now();
			let genMs = 0;
			for (let i = 0; i < (reuse ? 0 : SECTIONS); i += INSERT_BATCH) {
				const g = performance.now();
				const batch = Array.from({ length: Math.min(INSERT_BATCH, SECTIONS - i) }, (_, j) => {
					const sec = section();
					const log = rnd() < LOG_SHARE;
					const body = log && rnd() < QUESTION_SHARE ? `${sec.body}?` : sec.body;
					const where = log ? `Log › gm #${i + j + 1}` : sec.path;
					return {
						kind: log ? ('log' as const) : ('document' as const),
						recordId: i + j + 1,
						ord: 0,
						path: where,
						body,
						gmOnly: !log && rnd() < 0.1,
						ref: `s${i + j + 1}`,
						contentHash: createHash('sha256').update(`${where}\n${body}`).digest('hex')
					};
				});
				genMs += performance.now() - g;
				await s.write((tx) => tx.insert(sessionSchema.sections).values(batch));
			}
			const ftsMs = performance.now() - t - genMs;
			if (!reuse)
				console.log(
					`index build, FTS (sections + trigram + words + queue, ${INSERT_BATCH}/transaction): ${(SECTIONS / (ftsMs / 1000)).toFixed(0)} \
sections/s (${(ftsMs / 1000).toFixed(1)} s)`
				);

			t = performance.now();
			let last = 0;
			const result = await embedPending(s, embedder, {
				batchSize: EMBED_BATCH,
				maxBatches: Number.POSITIVE_INFINITY,
				onBatch: ({ embedded }) => {
					if (embedded - last >= 10_000) {
						last = embedded;
						process.stderr.write(`  vectors: ${embedded}/${SECTIONS} (${(embedded / ((performance.now() - t) / 1000)).toFixed(0)}/s)\n`);
					}
				}
			});
			const vecMs = performance.now() - t;
			if (!reuse)
				console.log(
					`index build, vectors (embed + F32_BLOB + DiskANN, ${EMBED_BATCH}/transaction): ${(result.embedded / (vecMs / 1000)).toFixed(0)} \
sections/s (${(vecMs / 1000).toFixed(1)} s)`
				);
			const file = path.join(dir, 'sessions', `${id}.db`);
			const size = ['', '-wal'].reduce((sum, suffix) => sum + (statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
			console.log(`database size: ${(size / 1024 / 1024).toFixed(0)} MB`);

			rnd = prng(7); // the same queries whether or not this run generated the sections
			// Query mix: full names (3+ chars), 2-character kanji names, single kanji, English names and word queries.
			const classes: Record<string, string[]> = { 'ja name': [], 'ja 1-2 chars': [], 'en words': [], 'en name': [], unrelated: [] };
			for (let i = 0; i < QUERIES; i++) {
				const topic = pickSkewed(topics);
				const r = i % 10;
				const jaTopic = topics[topic.id - (topic.id % 2)] ?? topic;
				const enTopic = topics[topic.id - (topic.id % 2) + 1] ?? topic;
				if (r < 3) classes['ja name']?.push(`${pick(jaTopic.names)}${rnd() < 0.5 ? 'の噂' : ''}`);
				else if (r < 5) classes['ja 1-2 chars']?.push(rnd() < 0.75 ? `${pick(KANJI)}${pick(KANJI)}` : pick(KANJI));
				else if (r < 7) classes['en words']?.push(`who ${pick(EN_WORDS)} the ${pick(EN_NOUNS)} ${pick(EN_WORDS)}`);
				else if (r < 9) classes['en name']?.push(pick(enTopic.names));
				else
					classes.unrelated?.push(pick(['what is the airspeed of a swallow', 'quarterly tax returns', 'how to bake bread', '今日の天気']));
			}
			const all = Object.values(classes).flat();
			// Warm the page cache and statement paths once, as a running server would be.
			for (const q of all.slice(0, 20)) await recall(s.db, q, { embedder });

			const keyword = await timeAll(all, (q) => recall(s.db, q, { k: RECALL_K }));
			const vector = await timeAll(all, async (q) => {
				const [v] = await embedder.embed([q]);
				if (v) await vectorSearch(s.db, v, embedder.id, { includeGmOnly: false }, 40);
			});
			const fused = await timeAll(all, (q) => recall(s.db, q, { k: RECALL_K, embedder }));
			console.log(`recall latency over ${all.length} queries (k=${RECALL_K}):`);
			for (const [name, xs] of [
				['keyword only', keyword],
				['vector only', vector],
				['fused', fused]
			] as const)
				console.log(`  ${name.padEnd(13)} p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}  max ${fmt(Math.max(...xs))}`);
			console.log('fused, by query class:');
			for (const [name, qs] of Object.entries(classes)) {
				const xs = await timeAll(qs, (q) => recall(s.db, q, { k: RECALL_K, embedder }));
				console.log(
					`  ${name.padEnd(13)} n=${String(qs.length).padStart(3)}  p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}`
				);
			}
		});
	} finally {
		await app.close();
		if (!args.dir) rmSync(dir, { recursive: true, force: true });
	}
}

await main();

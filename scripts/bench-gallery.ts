/**
 * npm run bench:gallery [-- --presets N] [--favorites F] [--players P] [--users U] [--reps R]
 *
 * The gallery's shelves at scale, server-side: a control database (a real libSQL file, migrated as in
 * production) with N public presets (default 10,000, Japanese and English titles and taglines from a
 * word list), F favourites (default 100,000) and P play records (default 50,000, spread over 60 days)
 * from U users (default 5,000), then R timed reads (default 300) of each shelf page through the same
 * `galleryPage` the pages and the API call: first pages, deep pages (by cursor), the language filter,
 * searches (common and rare words, Japanese of one, two and four characters), a heavy user's
 * Favourites, and the tag and rating filters (each preset has 1–5 of 200 tags, a few very common,
 * most rare; one in seven is rated mature, hidden unless the viewer may see it).
 * Target: p95 ≤ 30 ms per shelf page. Not a test: figures go to docs/performance.md.
 * `--keep` leaves the seeded data directory and prints it; `--data DIR` reads from one kept before
 * (seeding takes about a minute).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { controlSchema, newId, openControlDb, type ControlDrizzle } from '../src/lib/server/db';
import { galleryPage, type GalleryRequest } from '../src/lib/server/gallery';
import { POPULAR_WINDOW_MS, refreshPopularity, searchTextOf } from '../src/lib/server/presets';
import { benchConfig, tempDataDir } from './bench-lib/setup';
import { prng, type Rng } from './bench-lib/random';
import { latency, ms, table, type Latency } from './bench-lib/stats';

const { values: args } = parseArgs({
	options: {
		presets: { type: 'string', default: '10000' },
		favorites: { type: 'string', default: '100000' },
		players: { type: 'string', default: '50000' },
		users: { type: 'string', default: '5000' },
		reps: { type: 'string', default: '300' },
		keep: { type: 'boolean', default: false },
		data: { type: 'string' }
	}
});
const PRESETS = Number(args.presets);
const FAVORITES = Number(args.favorites);
const PLAYS = Number(args.players);
const USERS = Number(args.users);
const REPS = Number(args.reps);
const TARGET_P95_MS = 30;
/** Rows per INSERT statement while seeding. */
const CHUNK = 500;
const DAY = 24 * 3600_000;
const NOW = Date.now();

const EN_WORDS = [
	'salt',
	'iron',
	'ghost',
	'orchard',
	'harbour',
	'lantern',
	'winter',
	'empire',
	'river',
	'clockwork',
	'dragon',
	'academy',
	'desert',
	'crown',
	'signal',
	'garden',
	'storm',
	'mirror',
	'station',
	'library'
];
const JA_WORDS = [
	'魔法',
	'海底',
	'都市',
	'森',
	'郵便屋',
	'鉄',
	'幽霊',
	'果樹園',
	'港',
	'灯台',
	'冬',
	'帝国',
	'川',
	'時計',
	'竜',
	'学園',
	'砂漠',
	'王冠',
	'信号',
	'図書館'
];

/** 200 tags: `tag-0` on about a third of the presets, `tag-199` on a handful (skewed, as tags are). */
const TAGS = Array.from({ length: 200 }, (_, i) => `tag-${i}`);
const MATURE_SHARE = 1 / 7;

function pick<T>(rng: Rng, xs: readonly T[]): T {
	const x = xs[Math.floor(rng() * xs.length)];
	if (x === undefined) throw new Error('empty list');
	return x;
}

/** Zipf-like: a few presets get most of the attention, as on any shelf. */
function skewed(rng: Rng, n: number): number {
	return Math.min(n - 1, Math.floor(n * rng() ** 3));
}

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
	for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

async function seed(db: ControlDrizzle, rng: Rng): Promise<{ heavyUser: string; users: string[] }> {
	const { users, presets, presetVersions, presetFavorites, presetPlayers, presetTags } = controlSchema;
	const userIds = Array.from({ length: USERS }, () => newId());
	await insertChunks(
		userIds.map((id, i) => ({ id, name: `bench-user-${i}`, passwordHash: 'not-a-real-hash', createdAt: NOW })),
		(chunk) => db.insert(users).values(chunk)
	);
	const authors = userIds.slice(0, Math.max(1, Math.floor(USERS / 5)));
	const presetIds: string[] = [];
	const tagRows: { presetId: string; tag: string }[] = [];
	const rows = Array.from({ length: PRESETS }, (_, i) => {
		const ja = rng() < 0.5;
		const words = ja ? JA_WORDS : EN_WORDS;
		const title = ja ? `${pick(rng, words)}の${pick(rng, words)} ${i}` : `The ${pick(rng, words)} of ${pick(rng, words)} ${i}`;
		const tagline = ja
			? `${pick(rng, words)}と${pick(rng, words)}と${pick(rng, words)}の物語。`
			: `A tale of ${pick(rng, words)}, ${pick(rng, words)} and ${pick(rng, words)}.`;
		const id = newId();
		presetIds.push(id);
		const publishedAt = NOW - Math.floor(rng() * 365 * DAY);
		const tags = new Set(Array.from({ length: 1 + Math.floor(rng() * 5) }, () => TAGS[skewed(rng, TAGS.length)] ?? 'tag-0'));
		for (const tag of tags) tagRows.push({ presetId: id, tag });
		return {
			id,
			authorId: pick(rng, authors),
			language: ja ? ('ja' as const) : ('en' as const),
			visibility: 'public' as const,
			title,
			tagline,
			searchText: searchTextOf(title, tagline, ...tags),
			rating: rng() < MATURE_SHARE ? ('mature' as const) : ('general' as const),
			currentVersion: 1,
			publishedAt,
			createdAt: publishedAt,
			updatedAt: publishedAt
		};
	});
	await insertChunks(rows, (chunk) => db.insert(presets).values(chunk));
	await insertChunks(tagRows, (chunk) => db.insert(presetTags).values(chunk));
	// The shelves never read versions; one small row each keeps the data set honest about its tables.
	await insertChunks(
		presetIds.map((presetId) => ({ presetId, version: 1, content: '{}', contentHash: 'bench', createdAt: NOW })),
		(chunk) => db.insert(presetVersions).values(chunk)
	);
	// Favourites: skewed towards a few presets; one heavy user has a thousand of them.
	const heavyUser = userIds[userIds.length - 1] ?? '';
	const favorites = new Map<string, { userId: string; presetId: string; createdAt: number }>();
	for (let i = 0; favorites.size < Math.min(1000, PRESETS) && i < 100_000; i++) {
		const presetId = presetIds[i % presetIds.length] ?? '';
		favorites.set(`${heavyUser} ${presetId}`, { userId: heavyUser, presetId, createdAt: NOW - Math.floor(rng() * 200 * DAY) });
	}
	while (favorites.size < FAVORITES) {
		const userId = pick(rng, userIds);
		const presetId = presetIds[skewed(rng, presetIds.length)] ?? '';
		favorites.set(`${userId} ${presetId}`, { userId, presetId, createdAt: NOW - Math.floor(rng() * 200 * DAY) });
	}
	await insertChunks([...favorites.values()], (chunk) => db.insert(presetFavorites).values(chunk));
	const plays = new Map<string, { presetId: string; userId: string; firstPlayedAt: number; lastPlayedAt: number }>();
	while (plays.size < PLAYS) {
		const userId = pick(rng, userIds);
		const presetId = presetIds[skewed(rng, presetIds.length)] ?? '';
		const at = NOW - Math.floor(rng() * 60 * DAY);
		plays.set(`${presetId} ${userId}`, { presetId, userId, firstPlayedAt: at, lastPlayedAt: at });
	}
	await insertChunks([...plays.values()], (chunk) => db.insert(presetPlayers).values(chunk));
	return { heavyUser, users: userIds };
}

function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = performance.now();
	return fn().then((value) => ({ ms: performance.now() - start, value }));
}

/** The users a reused data directory was seeded with: the heavy user is the last one created. */
async function seededUsers(db: ControlDrizzle): Promise<{ heavyUser: string; users: string[] }> {
	const rows = await db.select({ id: controlSchema.users.id }).from(controlSchema.users).orderBy(controlSchema.users.name);
	const users = rows.map((r) => r.id);
	const [heavy] = await db.all<{ id: string }>(
		sql`SELECT user_id AS id FROM preset_favorites GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`
	);
	return { heavyUser: heavy?.id ?? '', users };
}

async function main(): Promise<void> {
	const reuse = args.data;
	const { dir, remove } = reuse ? { dir: reuse, remove: () => undefined } : tempDataDir('kantera-bench-gallery-');
	try {
		const cfg = benchConfig(dir);
		const control = await openControlDb(cfg);
		const db = control.db;
		const rng = prng(20240905);
		if (!reuse)
			console.log(
				`seeding ${PRESETS.toLocaleString()} public presets, ${FAVORITES.toLocaleString()} \
favourites, ${PLAYS.toLocaleString()} play \
records, ${USERS.toLocaleString()} users…`
			);
		const seeded = reuse ? await time(() => seededUsers(db)) : await time(() => seed(db, rng));
		const refresh = await time(() => refreshPopularity(db, NOW, { force: true }));
		const [counts] = await db.all<{ presets: number; favorites: number; players: number; recent: number }>(
			sql`SELECT (SELECT count(*) FROM presets WHERE listed) AS presets, (SELECT count(*) FROM preset_favorites) AS favorites,
				(SELECT count(*) FROM preset_players) AS players,
				(SELECT count(*) FROM preset_players WHERE last_played_at >= ${NOW - POPULAR_WINDOW_MS}) AS recent`
		);
		console.log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s; popularity recomputed in ${ms(refresh.ms)}; ${JSON.stringify(counts)}`);

		const base: GalleryRequest = {
			shelf: 'new',
			language: '',
			q: '',
			tag: '',
			rating: '',
			mature: false,
			cursor: '',
			limit: 24,
			displayLanguage: 'en',
			now: NOW
		};
		const [tagCounts] = await db.all<{ common: number; rare: number }>(
			sql`SELECT (SELECT count(*) FROM preset_tags WHERE tag = 'tag-0') AS common, (SELECT count(*) FROM preset_tags WHERE tag = 'tag-199') AS rare`
		);
		console.log(`presets tagged tag-0: ${tagCounts?.common ?? 0}; tag-199: ${tagCounts?.rare ?? 0}`);
		/** The cursor N pages into a shelf, found by walking it. */
		const deepCursor = async (req: Partial<GalleryRequest>, pages: number): Promise<string> => {
			let cursor = '';
			for (let i = 0; i < pages; i++) cursor = (await galleryPage(db, { ...base, ...req, cursor })).nextCursor ?? '';
			return cursor;
		};
		const cases: [string, GalleryRequest][] = [
			['new, first page', { ...base }],
			['new, page 50', { ...base, cursor: await deepCursor({}, 49) }],
			['new, language=ja', { ...base, language: 'ja' }],
			['popular, first page', { ...base, shelf: 'popular' }],
			['popular, page 50', { ...base, shelf: 'popular', cursor: await deepCursor({ shelf: 'popular' }, 49) }],
			['popular, language=en', { ...base, shelf: 'popular', language: 'en' }],
			['favourites (1,000), first page', { ...base, shelf: 'favorites', viewerId: seeded.value.heavyUser }],
			[
				'favourites (1,000), page 20',
				{
					...base,
					shelf: 'favorites',
					viewerId: seeded.value.heavyUser,
					cursor: await deepCursor({ shelf: 'favorites', viewerId: seeded.value.heavyUser }, 19)
				}
			],
			['favourites (typical user)', { ...base, shelf: 'favorites', viewerId: seeded.value.users[7] }],
			['search "salt" (common)', { ...base, q: 'salt' }],
			['search "clockwork dragon"', { ...base, q: 'clockwork dragon' }],
			['search "9999" (rare)', { ...base, q: '9999' }],
			['search "図書館" (3 chars)', { ...base, q: '図書館' }],
			['search "魔法" (2 chars)', { ...base, q: '魔法' }],
			['search "森" (1 char)', { ...base, q: '森' }],
			['popular + search "harbour"', { ...base, shelf: 'popular', q: 'harbour' }],
			['search with no match', { ...base, q: 'zzzzqqq' }],
			['mature shown (opted-in viewer)', { ...base, mature: true }],
			['rating=mature, opted in', { ...base, mature: true, rating: 'mature' }],
			['tag (common, tag-0)', { ...base, tag: 'tag-0' }],
			['tag (common), page 20', { ...base, tag: 'tag-0', cursor: await deepCursor({ tag: 'tag-0' }, 19) }],
			['tag (mid, tag-40)', { ...base, tag: 'tag-40' }],
			['tag (rare, tag-199)', { ...base, tag: 'tag-199' }],
			['tag (none has it)', { ...base, tag: 'no-such-tag' }],
			['tag + language=ja', { ...base, tag: 'tag-3', language: 'ja' }],
			['popular + tag (common)', { ...base, shelf: 'popular', tag: 'tag-0' }],
			['popular + tag (rare)', { ...base, shelf: 'popular', tag: 'tag-199' }],
			['tag + search "salt"', { ...base, tag: 'tag-5', q: 'salt' }],
			['tag + rating=mature, opted in', { ...base, tag: 'tag-0', mature: true, rating: 'mature' }],
			['favourites (1,000) + tag', { ...base, shelf: 'favorites', viewerId: seeded.value.heavyUser, tag: 'tag-0' }]
		];
		const results: [string, Latency, number][] = [];
		for (const [name, req] of cases) {
			for (let i = 0; i < 20; i++) await galleryPage(db, req);
			const samples: number[] = [];
			let items = 0;
			for (let i = 0; i < REPS; i++) {
				const t = await time(() => galleryPage(db, req));
				samples.push(t.ms);
				items = t.value.items.length;
			}
			results.push([name, latency(samples), items]);
		}
		console.log(`\n${REPS} reads per case, page size 24 (+ the 2 official presets on first pages of New and Popular):\n`);
		console.log(
			table(
				['case', 'items', 'p50', 'p95', 'max'],
				results.map(([name, l, items]) => [name, items, ms(l.p50), ms(l.p95), ms(l.max)])
			)
		);
		// Baselines on the same data, to see what the kept counters and the trigram index buy: Popular
		// aggregated from the play records at read time, and search as a LIKE scan.
		const cut = NOW - POPULAR_WINDOW_MS;
		const baselines: [string, SQL][] = [
			[
				'baseline: popular aggregated per read',
				sql`SELECT p.id, p.title, count(pp.user_id) AS players, (SELECT count(*) FROM preset_favorites f WHERE f.preset_id = p.id) AS favs
					FROM presets p LEFT JOIN preset_players pp ON pp.preset_id = p.id AND pp.last_played_at >= ${cut}
					WHERE p.listed GROUP BY p.seq ORDER BY players DESC, favs DESC, p.published_at DESC, p.seq DESC LIMIT 25`
			],
			[
				'baseline: search "zzzzqqq" as LIKE',
				sql`SELECT id, title FROM presets WHERE listed AND (title LIKE '%zzzzqqq%' OR tagline LIKE '%zzzzqqq%') ORDER BY published_at DESC, seq DESC LIMIT 25`
			]
		];
		for (const [name, query] of baselines) {
			for (let i = 0; i < 5; i++) await db.all(query);
			const samples: number[] = [];
			for (let i = 0; i < Math.min(REPS, 50); i++) samples.push((await time(() => db.all(query))).ms);
			console.log(`${name}: p50 ${ms(latency(samples).p50)}, p95 ${ms(latency(samples).p95)} (${samples.length} reads)`);
		}
		const worst = Math.max(...results.map(([, l]) => l.p95));
		console.log(`\nworst p95 ${ms(worst)}: ${worst <= TARGET_P95_MS ? 'within' : 'OVER'} the ${TARGET_P95_MS} ms target`);
		control.close();
		if (worst > TARGET_P95_MS) process.exitCode = 1;
	} finally {
		if (args.keep && !reuse) console.log(`kept the data directory: ${dir} (pass --data ${dir})`);
		else remove();
	}
}

await main();

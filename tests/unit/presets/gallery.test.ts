/** The gallery's shelves, search and paging on a real control database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { galleryPage, GalleryError, type GalleryRequest } from '../../../src/lib/server/gallery';
import {
	changeVisibility,
	createFromInput,
	favorite,
	getPresetRow,
	takeDown,
	recordPlay,
	refreshPopularity,
	setVisibility,
	type PresetRow
} from '../../../src/lib/server/presets';
import { presetInput } from './factory';

let env: TestEnv;
let author: AuthUser;
const players: AuthUser[] = [];
const DAY = 24 * 3600_000;
const NOW = Date.UTC(2031, 5, 1);
/** Titles by name in these tests, with their language. */
const WORLDS = [
	{ key: 'salt', title: 'Salt Roads of Ardun', tagline: 'Caravans cross a desert of white salt.', language: 'en' },
	{ key: 'mori', title: '魔法の森の郵便屋', tagline: '森の奥へ手紙を届ける見習い魔法使いの物語。', language: 'ja' },
	{ key: 'steam', title: 'Steam and Silence', tagline: 'A quiet city of engines and secrets.', language: 'en' },
	{ key: 'umi', title: '海底都市カナロア', tagline: '沈んだ都で灯りを守る人々。', language: 'ja' },
	{ key: 'ghost', title: 'Ghost Orchard', tagline: 'Every apple remembers a name.', language: 'en' }
] as const;
const rows = new Map<string, PresetRow>();

function request(over: Partial<GalleryRequest>): GalleryRequest {
	return {
		shelf: 'new',
		language: '',
		q: '',
		tag: '',
		rating: '',
		mature: false,
		cursor: '',
		limit: 24,
		displayLanguage: 'en',
		now: NOW,
		...over
	};
}
async function ids(over: Partial<GalleryRequest>): Promise<string[]> {
	return (await galleryPage(env.app.control.db, request(over))).items.map((i) => i.id);
}
const keyOf = (id: string) => [...rows.entries()].find(([, r]) => r.id === id)?.[0] ?? id;
async function keys(over: Partial<GalleryRequest>): Promise<string[]> {
	return (await ids(over)).map(keyOf);
}

beforeAll(async () => {
	env = await testEnv();
	const { app } = env;
	author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
	for (let i = 0; i < 4; i++)
		players.push(await createUser(app, { name: `player${i}`, password: 'correct horse battery' }, { viaOperator: true }));
	for (const [i, w] of WORLDS.entries()) {
		const row = await createFromInput(app, author, presetInput({ title: w.title, tagline: w.tagline, language: w.language }));
		// Published one day apart, in list order: the last one is the newest.
		rows.set(w.key, await setVisibility(app.control.db, row, 'public', { publishPerDay: 0, now: NOW - (WORLDS.length - i) * DAY }));
	}
}, 60_000);
afterAll(async () => {
	await env.cleanup();
});

function row(key: string): PresetRow {
	const r = rows.get(key);
	if (!r) throw new Error(`no preset ${key}`);
	return r;
}

describe('New', () => {
	it('lists the official presets first, then the latest published; a private or taken-down preset never', async () => {
		expect(await keys({})).toEqual(['sword-and-sorcery', 'iron-walkers', 'ghost', 'umi', 'steam', 'mori', 'salt']);
		const hidden = await createFromInput(env.app, author, presetInput({ title: 'Hidden Vale' }));
		await changeVisibility(env.app, author, hidden.id, 'unlisted');
		expect(await ids({})).not.toContain(hidden.id);
	});

	it('official presets are shown in the filter’s or the reader’s language', async () => {
		const ja = await galleryPage(env.app.control.db, request({ displayLanguage: 'ja' }));
		expect(ja.items[0]?.title).toBe('黒塩の都ヴェスカ');
		const en = await galleryPage(env.app.control.db, request({ language: 'en', displayLanguage: 'ja' }));
		expect(en.items[0]?.title).toBe('Vesca of the Black Salt');
	});

	it('filters by language (official presets have every language)', async () => {
		expect(await keys({ language: 'ja' })).toEqual(['sword-and-sorcery', 'iron-walkers', 'umi', 'mori']);
		expect(await keys({ language: 'en' })).toEqual(['sword-and-sorcery', 'iron-walkers', 'ghost', 'steam', 'salt']);
	});

	it('pages by cursor: every preset exactly once, officials only on the first page', async () => {
		const seen: string[] = [];
		let cursor = '';
		let pages = 0;
		do {
			const page = await galleryPage(env.app.control.db, request({ limit: 2, cursor }));
			seen.push(...page.items.map((i) => keyOf(i.id)));
			cursor = page.nextCursor ?? '';
			pages++;
		} while (cursor !== '' && pages < 10);
		expect(seen).toEqual(['sword-and-sorcery', 'iron-walkers', 'ghost', 'umi', 'steam', 'mori', 'salt']);
		expect(pages).toBe(3);
	});

	it('refuses a cursor it did not give out, or one from another shelf', async () => {
		const page = await galleryPage(env.app.control.db, request({ limit: 1 }));
		const cursor = page.nextCursor ?? '';
		await expect(galleryPage(env.app.control.db, request({ shelf: 'popular', cursor }))).rejects.toBeInstanceOf(GalleryError);
		await expect(galleryPage(env.app.control.db, request({ cursor: 'bm90IGEgY3Vyc29y' }))).rejects.toBeInstanceOf(GalleryError);
		await expect(galleryPage(env.app.control.db, request({ cursor: '%%%' }))).rejects.toBeInstanceOf(GalleryError);
	});
});

describe('search', () => {
	it('matches words of titles and taglines as substrings, every word, in any case', async () => {
		expect(await keys({ q: 'salt' })).toEqual(expect.arrayContaining(['salt']));
		expect(await keys({ q: 'STEAM secrets' })).toEqual(['steam']);
		expect(await keys({ q: 'orchard apple' })).toEqual(['ghost']);
		expect(await keys({ q: 'orchard engines' })).toEqual([]);
	});

	it('finds Japanese substrings of any length, down to one character', async () => {
		expect(await keys({ q: '郵便' })).toEqual(['mori']);
		expect(await keys({ q: '見習い魔法使い' })).toEqual(['mori']);
		expect(await keys({ q: '都' })).toEqual(expect.arrayContaining(['umi', 'sword-and-sorcery']));
		expect(await keys({ q: 'カナロア 灯り' })).toEqual(['umi']);
	});

	it('treats FTS syntax in the query as plain characters', async () => {
		for (const q of ['"salt', 'salt*', 'NOT salt', 'salt OR ghost', 'a:b', '(ghost)', "'; DROP TABLE presets; --"]) {
			await expect(galleryPage(env.app.control.db, request({ q }))).resolves.toBeDefined();
		}
		expect(await keys({ q: 'salt OR ghost' })).toEqual([]);
	});
});

describe('Popular and Favourites', () => {
	it('orders by distinct players in the last 30 days, then by favourites; older plays and the author’s own do not count', async () => {
		const { app } = env;
		const db = app.control.db;
		const [p0, p1, p2, p3] = players;
		if (!p0 || !p1 || !p2 || !p3) throw new Error('four players');
		// steam: three recent players (one twice); umi: two recent; ghost: one recent + two old; salt: none, but favourites.
		for (const p of [p0, p1, p2, p0]) await recordPlay(db, row('steam'), p.id, NOW - DAY);
		for (const p of [p1, p2]) await recordPlay(db, row('umi'), p.id, NOW - 2 * DAY);
		await recordPlay(db, row('ghost'), p3.id, NOW - DAY);
		for (const p of [p0, p1]) await recordPlay(db, row('ghost'), p.id, NOW - 40 * DAY);
		await recordPlay(db, row('mori'), author.id, NOW - DAY);
		for (const p of [p0, p1, p2]) await favorite(app, p, row('salt').id, true);
		await favorite(app, p0, row('mori').id, true);
		await refreshPopularity(db, NOW, { force: true });
		expect(await keys({ shelf: 'popular' })).toEqual(['sword-and-sorcery', 'iron-walkers', 'steam', 'umi', 'ghost', 'salt', 'mori']);
		expect(await getPresetRow(db, row('ghost').id)).toMatchObject({ playersTotal: 3, players30d: 1 });
		expect(await getPresetRow(db, row('mori').id)).toMatchObject({ playersTotal: 0, favorites: 1 });

		// A month later the recent plays have aged out: the shelf refreshes itself once the counts may be stale.
		const later = NOW + 31 * DAY;
		await galleryPage(db, request({ shelf: 'popular', now: later }));
		expect(await keys({ shelf: 'popular', now: later })).toEqual([
			'sword-and-sorcery',
			'iron-walkers',
			'salt',
			'mori',
			'ghost',
			'umi',
			'steam'
		]);
	});

	it('Favourites lists the user’s own, latest first, as long as they can still see them', async () => {
		const { app } = env;
		const [, , , fan] = players;
		if (!fan) throw new Error('a fan');
		expect(await keys({ shelf: 'favorites', viewerId: fan.id })).toEqual([]);
		expect(await keys({ shelf: 'favorites' })).toEqual([]);
		await favorite(app, fan, row('salt').id, true);
		await new Promise((r) => setTimeout(r, 5));
		await favorite(app, fan, 'iron-walkers', true);
		await new Promise((r) => setTimeout(r, 5));
		await favorite(app, fan, row('ghost').id, true);
		expect(await keys({ shelf: 'favorites', viewerId: fan.id })).toEqual(['ghost', 'iron-walkers', 'salt']);
		expect(await keys({ shelf: 'favorites', viewerId: fan.id, language: 'ja' })).toEqual(['iron-walkers']);
		await changeVisibility(app, author, row('ghost').id, 'private');
		expect(await keys({ shelf: 'favorites', viewerId: fan.id })).toEqual(['iron-walkers', 'salt']);
		await takeDown(app.control.db, row('salt').id, { reason: 'spam', adminId: 'admin' });
		expect(await keys({ shelf: 'favorites', viewerId: fan.id })).toEqual(['iron-walkers']);
		expect(await keys({})).not.toContain('salt');
	});
});

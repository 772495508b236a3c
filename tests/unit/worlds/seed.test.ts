import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../../src/lib/types/settings';
import { eq } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import { documents, state, story } from '../../../src/lib/server/records';
import { embedPending, OfflineEmbedder, recall, type RecallHit } from '../../../src/lib/server/search';
import { imageOrders, npcs, scenes } from '../../../src/lib/server/stage';
import { readMission, LANGUAGE_RULE, readSettings } from '../../../src/lib/server/session-setup';
import {
	getWorld,
	PLOT_KEY,
	seedSessionFromPreset,
	seedSessionFromWorld,
	WORLD_IDS,
	WORLD_SEED_TURN_ID,
	WorldError,
	type WorldPreset
} from '../../../src/lib/server/worlds';

let env: TestEnv | undefined;
beforeAll(async () => {
	env = await testEnv();
});
afterAll(async () => {
	await env?.cleanup();
});

/** A fresh session database seeded with the world; `fn` runs on it after the seed committed. */
async function seeded(id: string, language: Language, fn: (s: SessionDb) => Promise<void>): Promise<void> {
	if (!env) throw new Error('test env not ready');
	await env.app.sessions.use(await env.sessionId(), async (s) => {
		await seedSessionFromWorld(s, id, language);
		await fn(s);
	});
}

async function emptySession(fn: (s: SessionDb) => Promise<void>): Promise<void> {
	if (!env) throw new Error('test env not ready');
	await env.app.sessions.use(await env.sessionId(), fn);
}

const ALL = WORLD_IDS.flatMap((id) => LANGUAGES.map((language) => ({ id, language })));

/** Text that gives a secret away: its markers and every sentence of its body. */
function secretPhrases(world: WorldPreset): string[] {
	return world.secrets.flatMap((s) => [...s.markers, ...s.body.split(/(?<=[.。])\s*/).filter((p) => p.length >= 12)]);
}

/** Everything the player can read: the visible documents' bodies and every visible section. */
async function playerVisibleText(s: SessionDb): Promise<string> {
	const visible = await documents.list(s.db, { includeGmOnly: false });
	const bodies = await Promise.all(visible.map(async (d) => `${d.title}\n${(await documents.get(s.db, d.id)).body}`));
	const sections = await s.db.select().from(sessionSchema.sections).where(eq(sessionSchema.sections.gmOnly, false));
	return [...bodies, ...sections.map((r) => `${r.path}\n${r.body}`)].join('\n');
}

function paths(hits: RecallHit[]): string[] {
	return hits.map((h) => h.path);
}

describe('seedSessionFromWorld', () => {
	it.each(ALL)(
		'$id ($language): documents, story DB, stage, image orders, state, settings and mission in one go',
		async ({ id, language }) => {
			const world = getWorld(id, language);
			if (!env) throw new Error('test env not ready');
			const cfg = env.config;
			await emptySession(async (s) => {
				const result = await seedSessionFromWorld(s, id, language);
				expect(result).toMatchObject({ worldId: id, language, title: world.title, gmBehaviour: world.gmBehaviour });
				expect(result.opening).toEqual({ scene: world.opening.scene.name, present: world.opening.present });

				const visible = await documents.list(s.db, { includeGmOnly: false });
				expect(visible.map((d) => d.title)).toEqual([
					world.documents.premise.title,
					world.documents.setting.title,
					world.documents.pc.title
				]);
				const all = await documents.list(s.db, { includeGmOnly: true });
				expect(all.filter((d) => d.gmOnly).map((d) => d.title)).toEqual([world.gmNotesTitle]);
				const notes = await documents.get(s.db, result.documentIds.gmNotes);
				for (const npc of world.npcs) expect(notes.body).toContain(npc.personality);
				expect(notes.body).toContain(world.opening.situation);

				const entries = await story.read(s.db);
				expect(entries.filter((e) => e.type === 'plot').map((e) => [e.key, e.body])).toEqual([[PLOT_KEY, world.plot.body]]);
				expect(entries.filter((e) => e.type === 'truth').map((e) => [e.key, e.body])).toEqual(world.secrets.map((x) => [x.key, x.body]));

				expect((await npcs.list(s.db)).map((n) => n.name).sort()).toEqual(world.npcs.map((n) => n.name).sort());
				expect((await scenes.list(s.db)).map((x) => x.name)).toEqual([world.opening.scene.name]);
				const orders = await imageOrders.pending(s.db, 100);
				expect(orders.map((o) => `${o.target}:${o.targetName}`).sort()).toEqual(
					[...world.npcs.map((n) => `npc:${n.name}`), `scene:${world.opening.scene.name}`].sort()
				);
				expect(orders.every((o) => o.turnId === WORLD_SEED_TURN_ID)).toBe(true);

				expect((await state.get(s.db)).doc).toEqual(world.opening.state);
				expect((await readSettings(s.db, cfg)).language).toBe(language);
				const mission = await readMission(s.db);
				expect(mission).toBe(result.mission);
				expect(mission).toContain(world.gmBehaviour);
				expect(mission).toContain(LANGUAGE_RULE[language]);
			});
		}
	);

	it.each(ALL)(
		'$id ($language): secrets are only in GM-only records, never in player-visible text, player recall or image prompts',
		async ({ id, language }) => {
			const world = getWorld(id, language);
			await seeded(id, language, async (s) => {
				const phrases = secretPhrases(world);
				expect(phrases.length).toBeGreaterThan(world.secrets.length);
				const visibleText = (await playerVisibleText(s)).toLowerCase();
				const prompts = (await imageOrders.pending(s.db, 100)).map((o) => o.prompt.toLowerCase()).join('\n');
				for (const phrase of phrases) {
					expect(visibleText).not.toContain(phrase.toLowerCase());
					expect(prompts).not.toContain(phrase.toLowerCase());
				}
				// NPC personalities are GM notes: not in the prompts either.
				for (const npc of world.npcs) expect(prompts).not.toContain(npc.personality.toLowerCase());

				for (const secret of world.secrets) {
					for (const marker of secret.markers) {
						const player = await recall(s.db, marker, { k: 20 });
						for (const hit of player) expect(hit.snippet.toLowerCase()).not.toContain(marker.toLowerCase());
						expect(player.some((h) => h.kind === 'story')).toBe(false);
						// The GM finds it, in the story DB.
						const gm = await recall(s.db, marker, { k: 20, includeGmOnly: true });
						expect(gm.some((h) => h.kind === 'story' && h.path.includes(secret.title))).toBe(true);
					}
				}
			});
		}
	);

	it('a failure part-way leaves the session untouched (one batch), and a database with records is refused', async () => {
		await emptySession(async (s) => {
			// A truth already under one of the world's keys makes the seed fail after documents were written.
			await s.write((tx) => story.addTruth(tx, { key: 'mirela-was-a-sorcerer', body: 'placed by the test' }));
			const err = await seedSessionFromWorld(s, 'sword-and-sorcery', 'en').catch((e: unknown) => e);
			expect(err).toBeInstanceOf(WorldError);
			expect(err).toMatchObject({ code: 'not_empty' });
			expect(await documents.list(s.db, { includeGmOnly: true })).toEqual([]);
			expect(await npcs.list(s.db)).toEqual([]);
			expect(await imageOrders.pending(s.db, 100)).toEqual([]);
			expect(await readMission(s.db)).toBeUndefined();
			expect((await story.read(s.db)).map((e) => e.key)).toEqual(['mirela-was-a-sorcerer']);
		});
	});

	it('refuses an unknown world, and a session that already has a mission', async () => {
		await emptySession(async (s) => {
			expect(await seedSessionFromWorld(s, 'space-opera', 'en').catch((e: unknown) => e)).toBeInstanceOf(WorldError);
			await seedSessionFromWorld(s, 'iron-walkers', 'ja');
			const again = await seedSessionFromWorld(s, 'iron-walkers', 'ja').catch((e: unknown) => e);
			expect(again).toBeInstanceOf(WorldError);
			expect(again).toMatchObject({ code: 'not_empty' });
			expect(await documents.list(s.db, { includeGmOnly: true })).toHaveLength(4);
		});
	});
});

describe('seeding another author’s world (sealed)', () => {
	const MARKER = 'QUILLFEATHER-7Z';
	/** The fantasy world with a marker in a setting section of its own. */
	function authored(): WorldPreset {
		const world = getWorld('sword-and-sorcery', 'en');
		const body = `${world.documents.setting.body}\n\n## The Vault Below\n\nUnder the salt office lies a vault sealed with the word ${MARKER}.`;
		return { ...world, id: 'abcdefghijklmnopqrst', documents: { ...world.documents, setting: { ...world.documents.setting, body } } };
	}

	it('the player sees document names only: no body, no heading, no recall hit, no image prompt holds the marker; the GM finds it', async () => {
		await emptySession(async (s) => {
			await seedSessionFromPreset(s, authored(), { sealed: true, origin: { presetId: 'abcdefghijklmnopqrst', version: 3 } });
			const visible = (await playerVisibleText(s)).toLowerCase();
			expect(visible).not.toContain(MARKER.toLowerCase());
			const titles = await documents.toc(s.db, { includeGmOnly: false, includeVisibleTitles: true });
			expect(titles.map((d) => [d.title, d.headings])).toEqual([
				['Premise', []],
				['World Setting', []],
				['PC Sheet', []]
			]);
			const prompts = (await imageOrders.pending(s.db, 100)).map((o) => o.prompt).join('\n');
			expect(prompts).not.toContain(MARKER);
			for (const query of [MARKER, 'vault under the salt office', 'Vault Below']) {
				const player = await recall(s.db, query, { k: 20 });
				expect(player.filter((h) => h.kind === 'document')).toEqual([]);
				expect(JSON.stringify(player)).not.toContain(MARKER);
			}
			const gm = await recall(s.db, MARKER, { k: 5, includeGmOnly: true });
			expect(gm[0]?.path).toBe('World Setting › The Vault Below');
			const gmToc = await documents.toc(s.db, { includeGmOnly: true });
			expect(gmToc.find((d) => d.title === 'World Setting')?.headings).toContain('World Setting › The Vault Below');
		});
	});
});

describe('recall over a seeded world', () => {
	it('finds the fantasy world by short Japanese names', async () => {
		await seeded('sword-and-sorcery', 'ja', async (s) => {
			expect(paths(await recall(s.db, '北門', { k: 3 }))).toContain('世界設定 › 地理 › ヴェスカ › 北門');
			expect(paths(await recall(s.db, '黒塩', { k: 5 }))).toContain('世界設定 › 魔術と信仰 › 黒塩');
			expect(paths(await recall(s.db, 'セファ', { k: 5 }))).toContain('PCシート › しがらみ');
			// What the world lacks is named in its canon list (the mission), not in its texts: the section says what stands instead.
			expect(paths(await recall(s.db, '飛び道具', { k: 3 }))).toContain('世界設定 › 技術と身の回りのもの › ないもの');
		});
	});

	it('finds the fantasy world by English words', async () => {
		await seeded('sword-and-sorcery', 'en', async (s) => {
			expect(paths(await recall(s.db, 'ward-stones', { k: 5 }))).toContain('World Setting › Geography › Vesca › The ward-stones');
			expect(paths(await recall(s.db, 'what does a sword cost', { k: 5 }))).toContain('World Setting › Daily Life › Money');
			expect(paths(await recall(s.db, 'Grey Hands debt', { k: 5 }))).toContain('PC Sheet › Ties');
			expect(paths(await recall(s.db, 'crossbow bolts', { k: 3 }))).toContain(
				'World Setting › Technology and Everyday Things › What does not exist'
			);
		});
	});

	it('answers how walker crews talk in the robot world from the technology section, which says what does not exist', async () => {
		await seeded('iron-walkers', 'en', async (s) => {
			const notExists = 'World Setting › Technology: What Exists and What Does Not › What does not exist';
			const voice = await recall(s.db, 'can walker crews talk by voice', { k: 3 });
			expect(paths(voice)[0]).toBe(notExists);
			const body = (await documents.sectionsOf(s.db, voice[0]?.recordId ?? -1, { path: notExists })).map((x) => x.body).join('\n');
			expect(body).toContain('cannot talk to each other');
			expect(body).toContain('Electronics stop at the valve');
			expect(paths(await recall(s.db, 'wireless telegraphy', { k: 3 }))).toContain(
				'World Setting › Technology: What Exists and What Does Not › What exists'
			);
			expect(paths(await recall(s.db, 'split the atom', { k: 3 }))).toContain(notExists);
			expect(paths(await recall(s.db, 'gait drum', { k: 5 }))).toContain('World Setting › The Walkers › How a walker is driven');
		});
	});

	it('answers 無線 in the robot world with both what exists and what does not', async () => {
		await seeded('iron-walkers', 'ja', async (s) => {
			const hits = paths(await recall(s.db, '無線', { k: 5 }));
			expect(hits).toContain('世界設定 › 技術：あるもの・ないもの › あるもの');
			expect(hits).toContain('世界設定 › 技術：あるもの・ないもの › ないもの');
			expect(paths(await recall(s.db, '原子', { k: 3 }))).toContain('世界設定 › 技術：あるもの・ないもの › ないもの');
			expect(paths(await recall(s.db, '60高地', { k: 3 }))).toContain('世界設定 › 地理 › 60高地');
			expect(paths(await recall(s.db, 'エイダ', { k: 5 }))).toContain('PCシート › 乗員');
		});
	});

	it('still answers with the offline embedder on the meaning side, after the seed is embedded', async () => {
		await seeded('iron-walkers', 'en', async (s) => {
			const embedder = new OfflineEmbedder(384);
			const result = await embedPending(s, embedder, { maxBatches: 1000 });
			expect(result.remaining).toBe(0);
			const hits = await recall(s.db, 'can walker crews talk by voice', { k: 3, embedder });
			expect(paths(hits)).toContain('World Setting › Technology: What Exists and What Does Not › What does not exist');
			expect(hits.some((h) => h.kind === 'story')).toBe(false);
		});
	});
});

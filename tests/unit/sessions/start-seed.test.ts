/**
 * Starting a session writes its world as one batch with ids computed in code. These tests hold that
 * batch to the reference: the same world written the way it was before, through the records' and
 * stage's transaction writers one by one (ids handed out by the database, sections written by
 * `replaceSections` after reading what is there, image orders claimed afterwards). Every table of both
 * databases — rows, rowids, id counters and what both full-text indexes hold — must be identical,
 * timestamps aside. And a seed that fails part-way leaves no session behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { testEnv, type TestEnv } from '../../helpers/env';
import { dumpSession, type Dump } from '../../helpers/dump';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { listPlaySessions, startSession, type StartSessionInput } from '../../../src/lib/server/sessions';
import { prologueSource } from '../../../src/lib/server/sessions/start';
import { sqlText, type SessionDb } from '../../../src/lib/server/db';
import { documents, state, story } from '../../../src/lib/server/records';
import { imageOrders, npcs, npcSpritePrompt, scenes, sceneBackgroundPrompt, setOpening } from '../../../src/lib/server/stage';
import { writePrologue } from '../../helpers/prologue';
import { composeMission, ensureMission, writeSettings } from '../../../src/lib/server/session-setup';
import { getWorld, PLOT_KEY, SEALED_DOCUMENTS_RULE, WORLD_IDS, WORLD_SEED_TURN_ID, type WorldPreset } from '../../../src/lib/server/worlds';
import { gmNotes } from '../../../src/lib/server/worlds/seed';
import { canonOfWorld, writeCanonQuery } from '../../../src/lib/server/canon';
import { writeOriginQuery, type PresetOrigin } from '../../../src/lib/server/worlds/origin';
import { LANGUAGES, type Language } from '../../../src/lib/types/settings';
import type { SessionSettings } from '../../../src/lib/server/session-setup';

let env: TestEnv;
let user: AuthUser;
beforeEach(async () => {
	env = await testEnv();
	// The seed's image orders must stay as the seed wrote them, and the dump's raw write transaction must not
	// meet a job's: no image runner takes them (which of the two came first was a matter of microtask order).
	await env.app.images.stop();
	user = await createUser(env.app, { name: 'seeder', password: 'seeder-password' });
});
afterEach(async () => {
	await env.cleanup();
});

interface Reference {
	world?: { preset: WorldPreset; sealed: boolean; origin?: PresetOrigin };
	language: Language;
	llm?: Partial<Pick<SessionSettings, 'provider' | 'model'>>;
}

/**
 * The reference seed: what `startSession` wrote into a new session database before the seed became
 * one batch, statement by statement in one transaction, returning what it reported.
 */
async function referenceSeed(s: SessionDb, ref: Reference) {
	return s.write(async (tx) => {
		let seeded: { mission: string; gmBehaviour: string; documentIds: Record<string, number> } | undefined;
		const w = ref.world;
		if (w) {
			const world = w.preset;
			await writeSettings(tx, { language: world.language });
			const behaviour = w.sealed ? `${world.gmBehaviour.trim()}\n\n${SEALED_DOCUMENTS_RULE}` : world.gmBehaviour;
			const mission = await ensureMission(tx, composeMission(world.language, behaviour, world.anachronisms));
			const visibility = { gmOnly: w.sealed, titleVisible: w.sealed };
			const ref = (part: string) => `world:${world.id}:${part}`;
			const { premise, setting, pc } = world.documents;
			const ids = {
				premise: (await documents.create(tx, { ...premise, ...visibility, ref: ref('premise') })).id,
				setting: (await documents.create(tx, { ...setting, ...visibility, ref: ref('setting') })).id,
				pc: (await documents.create(tx, { ...pc, ...visibility, ref: ref('pc') })).id,
				gmNotes: (await documents.create(tx, { title: world.gmNotesTitle, body: gmNotes(world), gmOnly: true, ref: ref('gm-notes') })).id
			};
			await story.setPlot(tx, { key: PLOT_KEY, title: world.plot.title, body: world.plot.body, ref: ref('plot') });
			for (const secret of world.secrets)
				await story.addTruth(tx, { key: secret.key, title: secret.title, body: secret.body, ref: ref(`secret:${secret.key}`) });
			for (const npc of world.npcs) {
				const { npc: row } = await npcs.register(tx, { name: npc.name, appearance: npc.appearance });
				await imageOrders.place(tx, { target: 'npc', targetName: row.name, prompt: npcSpritePrompt(row) });
			}
			const { scene } = await scenes.register(tx, world.opening.scene);
			await imageOrders.place(tx, { target: 'scene', targetName: scene.name, prompt: sceneBackgroundPrompt(scene) });
			await imageOrders.claimForTurn(tx, WORLD_SEED_TURN_ID);
			await setOpening(tx, { scene: scene.name, present: [...world.opening.present] });
			await state.patch(tx, world.opening.state);
			await writeCanonQuery(tx, canonOfWorld(world));
			if (w.origin) await writeOriginQuery(tx, w.origin, world, w.sealed);
			await writePrologue(tx, prologueSource(world, { sealed: w.sealed }));
			seeded = { mission, gmBehaviour: behaviour, documentIds: ids };
		} else {
			await ensureMission(tx, composeMission(ref.language));
		}
		await writeSettings(tx, { language: ref.language, ...ref.llm });
		return seeded;
	});
}

const isTimestamp = (column: string) => column.endsWith('_at');

/**
 * Every table (timestamps aside), the id counters and both full-text indexes' contents. Not the record
 * revision (db/record-revision.ts): it counts row writes, and the reference writes rows more than once
 * (an insert then its update) where the batch writes them once.
 */
async function dumpAll(s: SessionDb): Promise<Dump> {
	const dump = await dumpSession(s.client, { excluded: new Set(['record_revision']), masked: isTimestamp });
	const seq = await s.client.execute('SELECT name, seq FROM sqlite_sequence ORDER BY name');
	return { ...dump, sqlite_sequence: seq.rows.map((r) => [sqlText(r.name), Number(r.seq)]) };
}

/** A session through `startSession` and the reference on a database of its own, both dumped. */
async function bothWays(input: Omit<StartSessionInput, 'ownerId' | 'title'>, ref: Reference) {
	const started = await startSession(env.app, { ownerId: user.id, title: 'Seeded', ...input });
	const actual = await env.app.sessions.use(started.session.id, dumpAll);
	const reference = await env.app.sessions.use(await env.sessionId(), async (s) => ({
		seeded: await referenceSeed(s, ref),
		dump: await dumpAll(s)
	}));
	return { started, actual, reference };
}

const ALL = WORLD_IDS.flatMap((id) => LANGUAGES.map((language) => ({ id, language })));

describe('a session started from a world holds exactly what the statement-by-statement seed wrote', () => {
	it.each(ALL)('$id ($language)', async ({ id, language }) => {
		const preset = getWorld(id, language);
		const { started, actual, reference } = await bothWays({ worldId: id, language }, { world: { preset, sealed: false }, language });
		// Not vacuous: the world's records are there, every one indexed.
		expect(actual['documents']).toHaveLength(4);
		expect(actual['story_entries']).toHaveLength(1 + preset.secrets.length);
		expect(actual['image_orders']).toHaveLength(preset.npcs.length + 1);
		expect(actual['log_messages']).toHaveLength(1);
		expect((actual['fts:sections_words'] ?? []).length).toBeGreaterThan(100);
		expect(actual).toEqual(reference.dump);
		expect(started.world).toMatchObject(reference.seeded ?? {});
	});

	it.each(WORLD_IDS)('%s as another author’s preset (sealed, with its origin and an LLM choice) and as an open one', async (id) => {
		const sealed = { presetId: 'abcdefghijklmnopqrst', version: 3 };
		const llm = { provider: 'openai', model: 'gpt-test' } as const;
		const ja = getWorld(id, 'ja');
		const one = await bothWays(
			{ language: 'ja', preset: { world: ja, sealed: true, origin: sealed }, llm },
			{ world: { preset: ja, sealed: true, origin: sealed }, language: 'ja', llm }
		);
		// The canon (issue 27) is one of them.
		expect(one.actual['meta']?.length).toBe(9);
		expect(one.actual).toEqual(one.reference.dump);
		expect(one.started.world).toMatchObject(one.reference.seeded ?? {});

		const en = getWorld(id, 'en');
		const open = { presetId: id, version: 1 };
		const two = await bothWays(
			{ language: 'en', preset: { world: en, origin: open } },
			{ world: { preset: en, sealed: false, origin: open }, language: 'en' }
		);
		expect(two.actual).toEqual(two.reference.dump);
	});

	it('an empty world: the bare mission and the settings', async () => {
		const llm = { provider: 'anthropic', model: 'claude-test' } as const;
		const { actual, reference } = await bothWays({ language: 'ja', llm }, { language: 'ja', llm });
		expect(actual['meta']).toHaveLength(4);
		expect(actual).toEqual(reference.dump);
	});
});

describe('a seed that fails part-way', () => {
	it('leaves no session: nothing listed, no database left', async () => {
		const world = getWorld('sword-and-sorcery', 'en');
		const [first] = world.npcs;
		if (!first) throw new Error('the world has NPCs');
		// Two NPCs that are one once their names are trimmed: the batch fails at the second one, after the
		// documents, the story DB and the first NPC went in (a validated preset never has them: the
		// schema trims names and refuses duplicates).
		const broken: WorldPreset = { ...world, npcs: [...world.npcs, { ...first, name: ` ${first.name} ` }] };
		const sessionsDir = path.join(env.dir, 'sessions');
		const databases = () => readdirSync(sessionsDir).filter((f) => f.endsWith('.db'));
		await startSession(env.app, { ownerId: user.id, title: 'Kept', language: 'en' });
		const before = databases();
		expect(before).toHaveLength(1);

		const err = await startSession(env.app, { ownerId: user.id, title: 'Broken', preset: { world: broken } }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(Error);
		expect(String(err)).toMatch(/UNIQUE/);
		expect((await listPlaySessions(env.app, user.id)).map((s) => s.title)).toEqual(['Kept']);
		expect(databases()).toEqual(before);
	});
});

/**
 * Starting a session from a world: the preset is written into the new session database as one write
 * batch (one round trip to a remote database, one transaction: nothing is half done) through the
 * batch forms of the records and stage writers, so everything is indexed for recall (the triggers on
 * `sections` fill the full-text indexes and the embedding queue in the same transaction).
 *
 * Nothing is read in between: a new database hands out every table's ids from 1, so the seed gives
 * its documents, story entries and the prologue's message those ids itself, and their sections (and
 * the prologue's cues) name them in the same batch. A database that is not new is refused: the pinned
 * mission goes in with a plain insert that fails on a mission already there or on documents already
 * written, and the whole batch with it.
 *
 * Where each part goes:
 * - premise, world setting, PC sheet → player-visible documents;
 * - NPC personalities + the opening situation → one GM-only document (the GM notes);
 * - plot skeleton → story DB plot `main`; secrets → story DB truths (GM-only, append-only);
 * - NPCs and the opening scene → stage registrations, each with an image order whose prompt is
 *   built from the visual fields only;
 * - opening state → the state record; language + pinned mission (rules + this world's GM
 *   behaviour + what the world does not have) → the session's meta table;
 * - the secrets' markers and what the world does not have → the session's canon (meta), which the
 *   guard checks the GM's words against.
 */
import { sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { meta, sessionSchema, writeAll, type SessionDb, type SessionWrites } from '../db';
import { documents, state, story } from '../records';
import {
	imageOrders,
	npcs,
	npcSpritePrompt,
	prologueQueries,
	scenes,
	sceneBackgroundPrompt,
	setOpeningQuery,
	musicLine,
	writeSoundsQuery,
	type PrologueSource,
	type SessionSound
} from '../stage';
import { composeMission, MISSION_KEY, writeSettingsQueries } from '../session-setup';
import { canonOfWorld, writeCanonQuery } from '../canon';
import { getWorld } from './catalog';
import { WorldError } from './errors';
import { writeOriginQuery, type PresetOrigin } from './origin';
import type { WorldPreset } from './schema';
import type { Language } from '../../types/settings';

/**
 * The turn id the seed's image orders are claimed under. Orders placed outside a turn would otherwise
 * wait unclaimed and be taken by the first turn's commit as if that turn had placed them.
 */
export const WORLD_SEED_TURN_ID = 'world-seed';
/** The story-DB key of the preset's plot skeleton. */
export const PLOT_KEY = 'main';

/**
 * Added to the world's GM behaviour when the player is not the preset's author. The player sees
 * only the documents' names; the GM reads them in full and must let the story reveal them.
 */
export const SEALED_DOCUMENTS_RULE = `The player did not write this world and has not read its \
documents: they see only their names. Reveal what the documents say only as the story reaches it, \
through what the player character sees, hears and is told. Never quote a document or recite its \
sections, and never copy its text into the journal, memory notes, state, summaries or image \
descriptions. In your first reply, tell the player who their character is and what they know, as \
the PC sheet allows.`;

export interface SeededWorld {
	readonly worldId: string;
	readonly language: Language;
	readonly title: string;
	/** The world's GM behaviour, as composed into the pinned mission. */
	readonly gmBehaviour: string;
	/** The pinned mission now stored in the session. */
	readonly mission: string;
	/** What the first screen shows before the first turn: the background's scene and who is on stage. */
	readonly opening: { readonly scene: string; readonly present: readonly string[] };
	readonly documentIds: { readonly premise: number; readonly setting: number; readonly pc: number; readonly gmNotes: number };
}

/** `ref` of every record the seed writes, so a later tool can tell preset content from play. */
function refOf(world: WorldPreset, part: string): string {
	return `world:${world.id}:${part}`;
}

/** The first id a new database hands out in every table: the seed's records take them in order. */
export const FIRST_ID = 1;

/** Seeds a new session database from a shipped world (see `seedQueries`); throws WorldError for an unknown world. */
export async function seedSessionFromWorld(
	s: SessionDb,
	worldId: string,
	language: Language,
	options: SeedOptions = {}
): Promise<SeededWorld> {
	return seedSessionFromPreset(s, getWorld(worldId, language), options);
}

export interface SeedOptions {
	/**
	 * The player is not the preset's author: its documents become GM-only with their titles shown
	 * (the player sees names only; the GM reads and recalls them in full), and the mission says so.
	 */
	readonly sealed?: boolean;
	/** Where the preset came from, kept in the session with the copy of the version it started from. */
	readonly origin?: PresetOrigin;
	/**
	 * The author's art, already copied into the session's image store: each image becomes a done order
	 * (and the sprite or background of what it shows), so nothing is drawn for it, now or later.
	 */
	readonly art?: readonly SeedArt[];
	/** The author's sound, already copied into the session's store: listed for the screen, its music named in the mission. */
	readonly sounds?: readonly SessionSound[];
}

/** One image of the author's art: an NPC's sprite (`Name` or `Name(expression)`) or a place's background. */
export interface SeedArt {
	readonly target: 'npc' | 'scene';
	readonly targetName: string;
	readonly image: string;
}

/** Seeds from a validated preset (a shipped one, or one an author wrote), as one write batch. */
export async function seedSessionFromPreset(s: SessionDb, world: WorldPreset, options: SeedOptions = {}): Promise<SeededWorld> {
	const plan = seedQueries(s.writes, world, options);
	await writeSeed(s, plan.queries);
	return plan.seeded;
}

export interface SeedPlan {
	/** The seed's writes, in order; run them with `writeSeed`, after any others of the new session's. */
	readonly queries: BatchItem<'sqlite'>[];
	readonly seeded: SeededWorld;
}

/**
 * The writes that seed a new session database from `world` (built with `SessionDb.writes`), with the
 * prologue's title card and message when `prologue` is given. Checks every input as the records'
 * writers do, before anything is sent.
 */
export function seedQueries(
	w: SessionWrites,
	world: WorldPreset,
	options: SeedOptions = {},
	prologue?: PrologueSource,
	now = Date.now()
): SeedPlan {
	const sealed = options.sealed ?? false;
	const tracks = musicLine(options.sounds ?? []);
	const behaviour = [
		sealed ? `${world.gmBehaviour.trim()}\n\n${SEALED_DOCUMENTS_RULE}` : world.gmBehaviour,
		...(tracks ? [tracks] : [])
	].join('\n\n');
	const mission = composeMission(world.language, behaviour, world.anachronisms);
	const queries: BatchItem<'sqlite'>[] = [...writeSettingsQueries(w, { language: world.language }), pinMissionQuery(w, mission)];

	const { premise, setting, pc } = world.documents;
	const visibility = { gmOnly: sealed, titleVisible: sealed };
	const docs: documents.DocumentInput[] = [
		{ ...premise, ...visibility, ref: refOf(world, 'premise') },
		{ ...setting, ...visibility, ref: refOf(world, 'setting') },
		{ ...pc, ...visibility, ref: refOf(world, 'pc') },
		{ title: world.gmNotesTitle, body: gmNotes(world), gmOnly: true, ref: refOf(world, 'gm-notes') }
	];
	docs.forEach((doc, i) => queries.push(...documents.createQueries(w, FIRST_ID + i, doc, now)));

	queries.push(
		...story.addQueries(
			w,
			FIRST_ID,
			'plot',
			{ key: PLOT_KEY, title: world.plot.title, body: world.plot.body, ref: refOf(world, 'plot') },
			now
		)
	);
	world.secrets.forEach((secret, i) =>
		queries.push(
			...story.addQueries(
				w,
				FIRST_ID + 1 + i,
				'truth',
				{ key: secret.key, title: secret.title, body: secret.body, ref: refOf(world, `secret:${secret.key}`) },
				now
			)
		)
	);

	// The seed's image orders are claimed at once (see WORLD_SEED_TURN_ID). The author's art is placed
	// as done orders; only what it does not cover is ordered for drawing.
	const art = options.art ?? [];
	const artOf = (target: SeedArt['target'], name: string) => art.find((a) => a.target === target && a.targetName === name)?.image ?? null;
	for (const a of art) queries.push(imageOrders.placeArtQuery(w, a, WORLD_SEED_TURN_ID, now));
	for (const npc of world.npcs) {
		// Only the name and the look go to the stage and the prompt: the personality is GM-only.
		const sprite = artOf('npc', npc.name);
		const registered = npcs.registerQuery(w, { name: npc.name, appearance: npc.appearance }, now, sprite);
		const order: imageOrders.OrderInput = { target: 'npc', targetName: registered.npc.name, prompt: npcSpritePrompt(registered.npc) };
		queries.push(registered.query);
		if (sprite === null) queries.push(imageOrders.placeClaimedQuery(w, order, WORLD_SEED_TURN_ID, now));
	}
	const background = artOf('scene', world.opening.scene.name.trim());
	const { scene, query: sceneQuery } = scenes.registerQuery(w, world.opening.scene, now, background);
	const sceneOrder: imageOrders.OrderInput = { target: 'scene', targetName: scene.name, prompt: sceneBackgroundPrompt(scene) };
	queries.push(sceneQuery);
	if (background === null) queries.push(imageOrders.placeClaimedQuery(w, sceneOrder, WORLD_SEED_TURN_ID, now));
	// The first screen shows the opening scene before any GM reply.
	queries.push(setOpeningQuery(w, { scene: scene.name, present: [...world.opening.present] }));

	queries.push(...state.firstPatchQueries(w, world.opening.state, now));
	// The GM's words are checked against the secrets' markers and what the world does not have (canon/).
	queries.push(writeCanonQuery(w, canonOfWorld(world)));
	if (options.origin) queries.push(writeOriginQuery(w, options.origin, world, sealed));
	if (options.sounds?.length) queries.push(writeSoundsQuery(w, options.sounds));
	// The seed writes no play-log message: the prologue's is the first.
	if (prologue) queries.push(...prologueQueries(w, prologue, FIRST_ID, now));

	const ids = { premise: FIRST_ID, setting: FIRST_ID + 1, pc: FIRST_ID + 2, gmNotes: FIRST_ID + 3 };
	return {
		queries,
		seeded: {
			worldId: world.id,
			language: world.language,
			title: world.title,
			gmBehaviour: behaviour,
			mission,
			opening: { scene: scene.name, present: [...world.opening.present] },
			documentIds: ids
		}
	};
}

/**
 * Pins the mission in a new database, and only there: a mission already pinned breaks the key's
 * uniqueness, and documents already written make the value NULL, which the column refuses. Either way
 * the batch fails whole (a mission is pinned once and never replaced, so a session that has one — or
 * has documents — already runs another campaign).
 */
function pinMissionQuery(w: SessionWrites, mission: string) {
	const { documents: docs } = sessionSchema;
	return meta.insertOrFailQuery(w, MISSION_KEY, mission, sql`EXISTS (SELECT 1 FROM ${docs})`);
}

/**
 * Runs a new session's first writes as one batch. When it fails because the database is not new (a
 * mission or records already there), says so with WorldError `not_empty`; nothing was written.
 */
export async function writeSeed(s: SessionDb, queries: readonly BatchItem<'sqlite'>[]): Promise<void> {
	try {
		await writeAll(s, queries);
	} catch (err) {
		if (await holdsRecords(s).catch(() => false)) {
			throw new WorldError('not_empty', 'This session already has a mission or records; a world can only be seeded into a new session.');
		}
		throw err;
	}
}

/** Whether the session has a mission or any record of the kinds a seed writes (read only after a failed seed). */
async function holdsRecords(s: SessionDb): Promise<boolean> {
	const { documents: docs, storyEntries, npcs: npcRows, scenes: sceneRows, state: stateRow, logMessages } = sessionSchema;
	const tables = [docs, storyEntries, npcRows, sceneRows, stateRow, logMessages].map((t) => sql`EXISTS (SELECT 1 FROM ${t})`);
	const row = await s.db.get<{ taken: number }>(sql`SELECT (${meta.hasKeySql(MISSION_KEY)} OR ${sql.join(tables, sql` OR `)}) AS taken`);
	return Number(row.taken) === 1;
}

const NOTES_HEADINGS = {
	ja: { opening: '導入', scene: '最初の場面', present: '登場している人物', people: '人物', role: '立場', none: 'なし' },
	en: { opening: 'Opening', scene: 'First scene', present: 'On stage', people: 'Characters', role: 'Role', none: 'nobody' }
} as const;

/** The GM-only notes document: how to open the first turn, then one section per NPC. */
export function gmNotes(world: WorldPreset): string {
	const h = NOTES_HEADINGS[world.language];
	const lines = [
		`## ${h.opening}`,
		'',
		`${h.scene}: ${world.opening.scene.name}`,
		`${h.present}: ${world.opening.present.length > 0 ? world.opening.present.join(', ') : h.none}`,
		'',
		world.opening.situation.trim(),
		'',
		`## ${h.people}`
	];
	for (const npc of world.npcs) lines.push('', `### ${npc.name}`, '', `${h.role}: ${npc.role}`, '', npc.personality.trim());
	return lines.join('\n');
}

/**
 * Starting a session from a world: one transaction writes the preset into a new session database
 * through the records and stage APIs, so everything is indexed for recall and nothing is half done.
 *
 * Where each part goes:
 * - premise, world setting, PC sheet → player-visible documents;
 * - NPC personalities + the opening situation → one GM-only document (the GM notes);
 * - plot skeleton → story DB plot `main`; secrets → story DB truths (GM-only, append-only);
 * - NPCs and the opening scene → stage registrations, each with an image order whose prompt is
 *   built from the visual fields only;
 * - opening state → the state record; language + pinned mission (rules + this world's GM
 *   behaviour) → the session's meta table.
 */
import type { SessionTx } from '../db';
import { documents, state, story } from '../records';
import { imageOrders, npcs, npcSpritePrompt, scenes, sceneBackgroundPrompt, setOpening } from '../stage';
import { composeMission, ensureMission, readMission, writeSettings } from '../session-setup';
import { getWorld } from './catalog';
import { WorldError } from './errors';
import { writeOrigin, type PresetOrigin } from './origin';
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
export const SEALED_DOCUMENTS_RULE = `The player did not write this world and has not read its documents: they see only their names. Reveal what the documents say only as the story reaches it, through what the player character sees, hears and is told. Never quote a document or recite its sections, and never copy its text into the journal, memory notes, state, summaries or image descriptions. In your first reply, tell the player who their character is and what they know, as the PC sheet allows.`;

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

/**
 * Seeds a new session database from a shipped world. Call inside the session's write transaction
 * instead of pinning a default mission; throws WorldError for an unknown world, and refuses a
 * database that already has a mission or documents (the mission would stay the old one and the
 * documents would be duplicated).
 */
export async function seedSessionFromWorld(
	tx: SessionTx,
	worldId: string,
	language: Language,
	options: SeedOptions = {}
): Promise<SeededWorld> {
	return seedSessionFromPreset(tx, getWorld(worldId, language), options);
}

export interface SeedOptions {
	/**
	 * The player is not the preset's author: its documents become GM-only with their titles shown
	 * (the player sees names only; the GM reads and recalls them in full), and the mission says so.
	 */
	readonly sealed?: boolean;
	/** Where the preset came from, kept in the session with the copy of the version it started from. */
	readonly origin?: PresetOrigin;
}

/** Seeds from a validated preset (a shipped one, or one an author wrote). */
export async function seedSessionFromPreset(tx: SessionTx, world: WorldPreset, options: SeedOptions = {}): Promise<SeededWorld> {
	const sealed = options.sealed ?? false;
	// A mission is pinned once and never replaced, so a session that has one already runs another campaign.
	if ((await readMission(tx)) !== undefined || (await documents.list(tx, { includeGmOnly: true })).length > 0) {
		throw new WorldError('not_empty', 'This session already has a mission or documents; a world can only be seeded into a new session.');
	}
	await writeSettings(tx, { language: world.language });
	const behaviour = sealed ? `${world.gmBehaviour.trim()}\n\n${SEALED_DOCUMENTS_RULE}` : world.gmBehaviour;
	const mission = await ensureMission(tx, composeMission(world.language, behaviour));

	const { premise, setting, pc } = world.documents;
	const visibility = { gmOnly: sealed, titleVisible: sealed };
	const premiseDoc = await documents.create(tx, { ...premise, ...visibility, ref: refOf(world, 'premise') });
	const settingDoc = await documents.create(tx, { ...setting, ...visibility, ref: refOf(world, 'setting') });
	const pcDoc = await documents.create(tx, { ...pc, ...visibility, ref: refOf(world, 'pc') });
	const notesDoc = await documents.create(tx, {
		title: world.gmNotesTitle,
		body: gmNotes(world),
		gmOnly: true,
		ref: refOf(world, 'gm-notes')
	});

	await story.setPlot(tx, { key: PLOT_KEY, title: world.plot.title, body: world.plot.body, ref: refOf(world, 'plot') });
	for (const secret of world.secrets) {
		await story.addTruth(tx, { key: secret.key, title: secret.title, body: secret.body, ref: refOf(world, `secret:${secret.key}`) });
	}

	for (const npc of world.npcs) {
		// Only the name and the look go to the stage and the prompt: the personality is GM-only.
		const { npc: row } = await npcs.register(tx, { name: npc.name, appearance: npc.appearance });
		await imageOrders.place(tx, { target: 'npc', targetName: row.name, prompt: npcSpritePrompt(row) });
	}
	const { scene } = await scenes.register(tx, world.opening.scene);
	await imageOrders.place(tx, { target: 'scene', targetName: scene.name, prompt: sceneBackgroundPrompt(scene) });
	await imageOrders.claimForTurn(tx, WORLD_SEED_TURN_ID);
	// The first screen shows the opening scene before any GM reply.
	await setOpening(tx, { scene: scene.name, present: [...world.opening.present] });

	await state.patch(tx, world.opening.state);
	if (options.origin) await writeOrigin(tx, options.origin, world, sealed);

	return {
		worldId: world.id,
		language: world.language,
		title: world.title,
		gmBehaviour: behaviour,
		mission,
		opening: { scene: scene.name, present: [...world.opening.present] },
		documentIds: { premise: premiseDoc.id, setting: settingDoc.id, pc: pcDoc.id, gmNotes: notesDoc.id }
	};
}

const NOTES_HEADINGS = {
	ja: { opening: '導入', scene: '最初の場面', present: '登場している人物', people: '人物', role: '立場', none: 'なし' },
	en: { opening: 'Opening', scene: 'First scene', present: 'On stage', people: 'Characters', role: 'Role', none: 'nobody' }
} as const;

/** The GM-only notes document: how to open the first turn, then one section per NPC. */
function gmNotes(world: WorldPreset): string {
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

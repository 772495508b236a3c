/**
 * Starting a play session, the one way every entry point does it (pages, API, CLI): the index row,
 * then in the session's database, in one write batch (one round trip to a remote database), either a
 * world seeded from a preset (documents, secrets, NPCs, opening scene, its GM behaviour in the pinned
 * mission, and the title card and prologue the screen opens on) or a bare mission, plus the session's
 * language and LLM settings. If that fails, nothing of it was written and the session is removed again.
 */
import { composeMission, ensureMissionQuery, writeSettingsQueries, type SessionSettings } from '../session-setup';
import { getWorld, isWorldId, seedQueries, writeSeed, type SeededWorld, type SeedOptions, type WorldPreset } from '../worlds';
import type { PrologueSource } from '../stage';
import { PlaySessionValidationError } from './errors';
import type { Language } from '../../types/settings';
import { createPlaySession, deletePlaySession, type PlaySession, type SessionsDeps } from './index-store';

/** Title, language and world may come straight from a form: they are validated here. */
export interface StartSessionInput {
	ownerId: string;
	title: unknown;
	language?: unknown;
	/** An official world id (see worlds/listWorlds); none or '' → an empty world with the bare GM rules. */
	worldId?: unknown;
	/** A preset version already resolved and checked by the presets module (instead of `worldId`). */
	preset?: { world: WorldPreset; copyArt?: (sessionId: string) => Promise<void> } & SeedOptions;
	llm?: Partial<Pick<SessionSettings, 'provider' | 'model'>>;
	/** The language of the field errors (the page's reader): English by default. */
	readerLanguage?: Language;
}

export interface StartedSession {
	session: PlaySession;
	world: SeededWorld | undefined;
}

export async function startSession(app: SessionsDeps, input: StartSessionInput): Promise<StartedSession> {
	const raw = input.worldId;
	if (raw !== undefined && raw !== '' && !(typeof raw === 'string' && isWorldId(raw)))
		throw new PlaySessionValidationError({ world: 'Choose one of the listed worlds.' });
	const worldId = typeof raw === 'string' && raw !== '' ? raw : undefined;
	const session = await createPlaySession(app, {
		ownerId: input.ownerId,
		title: input.title,
		language: input.language,
		readerLanguage: input.readerLanguage
	});
	const language = session.language;
	try {
		// The author's images are in the session's store before the seed names them.
		await input.preset?.copyArt?.(session.id);
		const world = await app.sessions.use(session.id, async (s) => {
			const { preset } = input;
			const source = preset?.world ?? (worldId === undefined ? undefined : getWorld(worldId, language));
			// The opening plays from the preset itself (the version the session copied): no LLM call
			// before the player's first line.
			const plan = source && seedQueries(s.writes, source, preset ?? {}, prologueSource(source, { sealed: preset?.sealed ?? false }));
			const queries = plan ? plan.queries : [ensureMissionQuery(s.writes, composeMission(language))];
			await writeSeed(s, [...queries, ...writeSettingsQueries(s.writes, { language, ...input.llm })]);
			return plan?.seeded;
		});
		// A world's NPC sprites and opening background are ordered by the seed: start drawing them now.
		if (world) app.images?.kick(session.id);
		return { session, world };
	} catch (err) {
		// A session without its mission must not be left behind in the list.
		await deletePlaySession(app, input.ownerId, session.id).catch(() => undefined);
		throw err;
	}
}

/**
 * A preset's player-visible fields the prologue is told from (never the GM-only ones). When the
 * documents are sealed (someone else's world: the player sees their names only), the premise is one
 * of them, so the prologue opens on the opening scene and the characters present alone (fields the
 * author's leak check already treats as player-visible).
 */
export function prologueSource(world: WorldPreset, options: { sealed: boolean } = { sealed: false }): PrologueSource {
	return {
		language: world.language,
		title: world.title,
		tagline: world.tagline,
		premise: options.sealed ? '' : world.documents.premise.body,
		scene: world.opening.scene,
		present: world.opening.present.flatMap((name) =>
			world.npcs.filter((n) => n.name === name).map((n) => ({ name: n.name, role: n.role }))
		),
		// Written for the player to read (leak-checked), so shown even when the documents are sealed.
		narration: world.opening.narration
	};
}

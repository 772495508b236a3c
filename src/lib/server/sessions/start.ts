/**
 * Starting a play session, the one way every entry point does it (pages, API, CLI): the index row,
 * then in the session's database, in one transaction, either a world seeded from a preset (documents,
 * secrets, NPCs, opening scene, its GM behaviour in the pinned mission) or a bare mission, plus the
 * session's language and LLM settings. If that fails, the session is removed again.
 */
import { composeMission, ensureMission, writeSettings, type SessionSettings } from '../turn';
import { isWorldId, seedSessionFromPreset, seedSessionFromWorld, type SeededWorld, type SeedOptions, type WorldPreset } from '../worlds';
import { PlaySessionValidationError } from './errors';
import type { App } from '../app';
import { createPlaySession, deletePlaySession, type PlaySession, type SessionLanguage } from './index-store';

/** Title, language and world may come straight from a form: they are validated here. */
export interface StartSessionInput {
	ownerId: string;
	title: unknown;
	language?: unknown;
	/** An official world id (see worlds/listWorlds); none or '' → an empty world with the bare GM rules. */
	worldId?: unknown;
	/** A preset version already resolved and checked by the presets module (instead of `worldId`). */
	preset?: { world: WorldPreset } & SeedOptions;
	llm?: Partial<Pick<SessionSettings, 'provider' | 'model'>>;
}

export interface StartedSession {
	session: PlaySession;
	world: SeededWorld | undefined;
}

export async function startSession(app: Pick<App, 'control' | 'sessions'> & Partial<Pick<App, 'images'>>, input: StartSessionInput): Promise<StartedSession> {
	const raw = input.worldId;
	if (raw !== undefined && raw !== '' && !(typeof raw === 'string' && isWorldId(raw))) throw new PlaySessionValidationError({ world: 'Choose one of the listed worlds.' });
	const worldId = typeof raw === 'string' && raw !== '' ? raw : undefined;
	const session = await createPlaySession(app, { ownerId: input.ownerId, title: input.title, language: input.language });
	const language: SessionLanguage = session.language;
	try {
		const world = await app.sessions.use(session.id, (s) =>
			s.write(async (tx) => {
				const { preset } = input;
				const seeded = preset
					? await seedSessionFromPreset(tx, preset.world, preset)
					: worldId === undefined
						? undefined
						: await seedSessionFromWorld(tx, worldId, language);
				if (!seeded) await ensureMission(tx, composeMission(language));
				await writeSettings(tx, { language, ...input.llm });
				return seeded;
			})
		);
		// A world's NPC sprites and opening background are ordered by the seed: start drawing them now.
		if (world) app.images?.kick(session.id);
		return { session, world };
	} catch (err) {
		// A session without its mission must not be left behind in the list.
		await deletePlaySession(app, input.ownerId, session.id).catch(() => undefined);
		throw err;
	}
}

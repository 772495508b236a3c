/**
 * Starting a play session, the one way every entry point does it (pages, API, CLI): the index row,
 * then in the session's database, in one transaction, either a world seeded from a preset (documents,
 * secrets, NPCs, opening scene, its GM behaviour in the pinned mission) or a bare mission, plus the
 * session's language and LLM settings. If that fails, the session is removed again.
 */
import { composeMission, ensureMission, writeSettings, type SessionSettings } from '../turn';
import { seedSessionFromWorld, type SeededWorld } from '../worlds';
import type { App } from '../app';
import { createPlaySession, deletePlaySession, type PlaySession, type SessionLanguage } from './index-store';

export interface StartSessionInput {
	ownerId: string;
	title: string;
	language: SessionLanguage;
	/** An official world id (see worlds/listWorlds); none → an empty world with the bare GM rules. */
	worldId?: string | undefined;
	llm?: Partial<Pick<SessionSettings, 'provider' | 'model'>>;
}

export interface StartedSession {
	session: PlaySession;
	world: SeededWorld | undefined;
}

export async function startSession(app: Pick<App, 'control' | 'sessions'>, input: StartSessionInput): Promise<StartedSession> {
	const session = await createPlaySession(app, { ownerId: input.ownerId, title: input.title, language: input.language });
	try {
		const world = await app.sessions.use(session.id, (s) =>
			s.write(async (tx) => {
				const seeded = input.worldId === undefined ? undefined : await seedSessionFromWorld(tx, input.worldId, input.language);
				if (!seeded) await ensureMission(tx, composeMission(input.language));
				await writeSettings(tx, { language: input.language, ...input.llm });
				return seeded;
			})
		);
		return { session, world };
	} catch (err) {
		// A session without its mission must not be left behind in the list.
		await deletePlaySession(app, input.ownerId, session.id).catch(() => undefined);
		throw err;
	}
}

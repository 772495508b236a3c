/**
 * The index of play sessions in the control database. Each session's records live in its own
 * database; this module creates (and migrates) it on create and destroys it on delete.
 */
import { and, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, sessionSchema, newId, isSessionId, type ControlDb, type SessionDb, type SessionDbPool } from '../db';
import { PlaySessionNotFoundError, PlaySessionValidationError } from './errors';
import { LanguageSchema, type Language } from '../../types/settings';
import { hasControlCharacter, said } from '../validation';

const { playSessions, users } = controlSchema;

export const TITLE_MAX = 100;

export const TitleSchema = v.pipe(
	v.string(said('sessions.error.title')),
	v.check((text: string) => !hasControlCharacter(text), said('sessions.error.titleControl')),
	v.trim(),
	v.minLength(1, said('sessions.error.title')),
	v.maxLength(TITLE_MAX, said('sessions.error.titleLong', { max: TITLE_MAX }))
);

export interface PlaySession {
	id: string;
	ownerId: string;
	title: string;
	language: Language;
	createdAt: Date;
	updatedAt: Date;
}

export interface PlaySessionWithOwner extends PlaySession {
	ownerName: string;
}

/**
 * What the index needs (an `App` fits): the control database and the session databases; the image runner
 * and the event bus only to start a seeded world's images and to let go of a deleted session, optional so
 * callers without them (some tools and tests) still work.
 */
export interface SessionsDeps {
	control: ControlDb;
	sessions: SessionDbPool;
	images?: { kick(sessionId: string): void; deleteSession(sessionId: string): Promise<void> };
	bus?: { ended(sessionId: string): void };
}
/** Reads and renames need only the index. */
type IndexDeps = Pick<SessionsDeps, 'control'>;

type Row = typeof playSessions.$inferSelect;
export const toPlaySession = (r: Row): PlaySession => ({
	id: r.id,
	ownerId: r.ownerId,
	title: r.title,
	language: r.language,
	createdAt: new Date(r.createdAt),
	updatedAt: new Date(r.updatedAt)
});

/** Its message in `readerLanguage` where the schema has one (English by default: the API and the CLI). */
function parse<S extends v.GenericSchema>(schema: S, field: string, value: unknown, readerLanguage?: Language): v.InferOutput<S> {
	const result = v.safeParse(schema, value, { lang: readerLanguage });
	if (result.success) return result.output;
	throw new PlaySessionValidationError({ [field]: result.issues[0].message });
}

export interface CreatePlaySessionInput {
	ownerId: string;
	title: unknown;
	language?: unknown;
	/** The language of the field errors (the page's reader), not of the story: English by default. */
	readerLanguage?: Language;
	/** Makes the session's database: created empty and migrated by default; a loaded save's branch is made as the save's copy. */
	database?: (id: string) => Promise<unknown>;
}

export async function createPlaySession(
	deps: Pick<SessionsDeps, 'control' | 'sessions'>,
	input: CreatePlaySessionInput,
	now = Date.now()
): Promise<PlaySession> {
	const title = parse(TitleSchema, 'title', input.title, input.readerLanguage);
	const language = parse(LanguageSchema, 'language', input.language ?? 'en');
	const id = newId();
	// Create the session database first (and migrate it), so a listed session always has one.
	try {
		await (input.database ?? ((id: string) => deps.sessions.create(id)))(id);
	} catch (err) {
		// Half-made (created but not migrated): remove it again; a Turso database that resists is recorded.
		await deps.sessions
			.destroy(id)
			.catch((cleanup: unknown) =>
				console.warn(
					`session ${id}: removing its half-created database failed: ${cleanup instanceof Error ? cleanup.message : String(cleanup)}`
				)
			);
		throw err;
	}
	try {
		const [row] = await deps.control.db
			.insert(playSessions)
			.values({ id, ownerId: input.ownerId, title, language, createdAt: now, updatedAt: now })
			.returning();
		if (!row) throw new Error('insert returned no row');
		return toPlaySession(row);
	} catch (err) {
		await deps.sessions.destroy(id);
		throw err;
	}
}

export async function listPlaySessions(deps: IndexDeps, ownerId: string): Promise<PlaySession[]> {
	const rows = await deps.control.db
		.select()
		.from(playSessions)
		.where(eq(playSessions.ownerId, ownerId))
		.orderBy(desc(playSessions.updatedAt), playSessions.id);
	return rows.map(toPlaySession);
}

/** Every session with its owner's name, for operators (CLI). */
export async function listAllPlaySessions(deps: IndexDeps): Promise<PlaySessionWithOwner[]> {
	const rows = await deps.control.db
		.select({ session: playSessions, ownerName: users.name })
		.from(playSessions)
		.innerJoin(users, eq(users.id, playSessions.ownerId))
		.orderBy(desc(playSessions.updatedAt), playSessions.id);
	return rows.map((r) => ({ ...toPlaySession(r.session), ownerName: r.ownerName }));
}

/** The owner's session, or PlaySessionNotFoundError (also for a malformed id or another owner's session). */
export async function getPlaySession(deps: IndexDeps, ownerId: string, id: unknown): Promise<PlaySession> {
	if (!isSessionId(id)) throw new PlaySessionNotFoundError();
	const [row] = await deps.control.db
		.select()
		.from(playSessions)
		.where(and(eq(playSessions.id, id), eq(playSessions.ownerId, ownerId)))
		.limit(1);
	if (!row) throw new PlaySessionNotFoundError();
	return toPlaySession(row);
}

/** Any owner's session by id, for operators (the CLI); PlaySessionNotFoundError when there is none. */
export async function findPlaySession(deps: IndexDeps, id: unknown): Promise<PlaySession> {
	if (!isSessionId(id)) throw new PlaySessionNotFoundError();
	const [row] = await deps.control.db.select().from(playSessions).where(eq(playSessions.id, id)).limit(1);
	if (!row) throw new PlaySessionNotFoundError();
	return toPlaySession(row);
}

/** `readerLanguage`: the language of the field errors (the page's reader), English by default. */
export async function renamePlaySession(
	deps: IndexDeps,
	ownerId: string,
	id: unknown,
	title: unknown,
	now = Date.now(),
	readerLanguage?: Language
): Promise<PlaySession> {
	const session = await getPlaySession(deps, ownerId, id);
	const valid = parse(TitleSchema, 'title', title, readerLanguage);
	const [row] = await deps.control.db
		.update(playSessions)
		.set({ title: valid, updatedAt: now })
		.where(and(eq(playSessions.id, session.id), eq(playSessions.ownerId, ownerId)))
		.returning();
	if (!row) throw new PlaySessionNotFoundError();
	return toPlaySession(row);
}

/** Removes the index row first (the session disappears for the player at once), then its database and images. */
export async function deletePlaySession(deps: SessionsDeps, ownerId: string, id: unknown): Promise<void> {
	const session = await getPlaySession(deps, ownerId, id);
	const deleted = await deps.control.db
		.delete(playSessions)
		.where(and(eq(playSessions.id, session.id), eq(playSessions.ownerId, ownerId)))
		.returning({ id: playSessions.id });
	if (deleted.length === 0) throw new PlaySessionNotFoundError();
	// Its open streams in this process end now (other processes' at their next access check), and read no more.
	deps.bus?.ended(session.id);
	// Save slots live in databases of their own (timetravel/saves.ts): they go with the session.
	const saveDbs = await deps.sessions.use(session.id, saveDatabases);
	// Images first: their runner stops the session's jobs, so none re-opens the database being destroyed.
	await deps.images?.deleteSession(session.id);
	await deps.sessions.destroy(session.id);
	for (const db of saveDbs) await deps.sessions.destroy(db);
}

/** Every save slot database a session names (time travel's saves): deleted with it, copied by backups. */
export async function saveDatabases(s: SessionDb): Promise<string[]> {
	return (await s.db.select({ database: sessionSchema.saves.database }).from(sessionSchema.saves)).map((r) => r.database);
}

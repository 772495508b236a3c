/**
 * Save slots: a named point in the campaign, and loading it as a branch.
 *
 * A save copies the session's records into a database of its own (placed like a session database),
 * and loading copies that into a new session: the player continues from the save in a session of its
 * own while the original stays as it was. A branch rather than a rewind because it is exact without
 * asking anything of the player: nothing played after the save is lost by a mistaken load, and there
 * is nothing to confirm. On the embedded default the copy is the database file copied page for page in
 * one read transaction (every index, full-text and vector, as it is); on a remote server it goes row by
 * row through the libSQL client, the vector index's graph included (db/copy.ts). The undo log is copied
 * too: in the branch the last turns before the save can still be undone.
 *
 * The branch is a new session: its own event log and ledger (it has spent nothing yet); the player's
 * daily quota and the global budget still count every turn it plays.
 */
import * as v from 'valibot';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { controlSchema, newId, sessionSchema, type ControlDb, type SessionDb, type SessionDbPool } from '../db';
import { createPlaySession, TITLE_MAX, type PlaySession } from '../sessions';
import { cues, imageOrders, stageBefore } from '../stage';
import { stageImages } from '../play';
import type { ImageStore } from '../images';
import { committedPlayerTurns, lastSeq, unfinishedTurnIds, WHISPER_TURN_IDS_SQL } from '../turn';
import { withoutControlCharacters } from '../validation';
import { translate } from '../../i18n/all-languages';
import { parseScript, stageAt, STAGE_SLOTS, type StageState } from '../../adv';
import { SaveThumbnailSchema, type SaveDto, type SaveThumbnail } from '../../types/saves';
import type { Language } from '../../types/settings';
import { TimeTravelError } from './errors';

const { saves, logMessages, npcs, scenes } = sessionSchema;

/** Named slots per session (the quick slot is one more): each holds a full copy of the records. */
export const MAX_SAVE_SLOTS = 20;
const MAX_SAVE_NAME_CHARS = 60;
/** The last line's preview in the slot list. */
const LAST_LINE_CHARS = 160;

export const SaveBody = v.strictObject({
	name: v.optional(
		v.pipe(
			v.string('name must be a string'),
			withoutControlCharacters('The name'),
			v.trim(),
			v.minLength(1, 'name must not be empty'),
			v.maxLength(MAX_SAVE_NAME_CHARS, `name has at most ${MAX_SAVE_NAME_CHARS} characters`)
		)
	),
	quick: v.optional(v.boolean('quick must be true or false'), false),
	/** The line the player is reading, as the screen keys it: the turn, then `in` (the player's line) or the paragraph. */
	at: v.optional(
		v.pipe(v.string('at must be a string'), v.regex(/^[A-Za-z0-9_-]{1,64}:(in|\d{1,4})$/, 'at must be a line: turn:paragraph'))
	)
});
export type SaveRequest = v.InferOutput<typeof SaveBody>;

/** What saves need (an `App` fits): both databases, and the images to copy into a branch and draw there. */
export interface SavesDeps {
	control: ControlDb;
	sessions: SessionDbPool;
	images: {
		store: Pick<ImageStore, 'get' | 'put'>;
		kick(sessionId: string): void;
		deleteSession(sessionId: string): Promise<void>;
	};
}

type SaveRow = typeof saves.$inferSelect;

/**
 * A stored thumbnail is JSON from the database, outside data on the way out: checked with the shape the
 * browser reads. One that is not a thumbnail (a hand edit, an older build) is left blank, with a warning.
 */
function storedThumbnail(row: SaveRow): SaveThumbnail {
	const parsed = v.safeParse(SaveThumbnailSchema, row.thumbnail);
	if (parsed.success) return parsed.output;
	console.warn(`[kantera] the stored thumbnail of save ${row.id} is not a thumbnail (${parsed.issues[0].message}); it is left blank`);
	return { background: null, sprites: [] };
}

function saveDto(row: SaveRow): SaveDto {
	return {
		id: row.id,
		name: row.name,
		quick: row.quick,
		turnNumber: row.turnNumber,
		lastLine: row.lastLine,
		thumbnail: storedThumbnail(row),
		at: row.at,
		createdAt: new Date(row.createdAt).toISOString()
	};
}

export async function listSaves(s: SessionDb): Promise<SaveDto[]> {
	const rows = await s.db.select().from(saves).orderBy(desc(saves.createdAt), desc(saves.id));
	return rows.map(saveDto);
}

/** The GM's reply and paragraph the player is reading (`at`), when `at` names one of the log's replies. */
/** A slot's last line is read by whoever lists the saves: never a whisper's line or answer (issue 25). */
const notWhispered = sql`(${logMessages.turnId} IS NULL OR ${logMessages.turnId} NOT IN ${WHISPER_TURN_IDS_SQL})`;

async function readingAt(s: SessionDb, at: string | undefined): Promise<{ id: number; body: string; paragraph: number } | undefined> {
	const [turnId, paragraph] = at?.split(':') ?? [];
	if (!turnId || paragraph === undefined || !/^\d+$/.test(paragraph)) return undefined;
	const [message] = await s.db
		.select({ id: logMessages.id, body: logMessages.body })
		.from(logMessages)
		.where(and(eq(logMessages.turnId, turnId), eq(logMessages.role, 'gm'), notWhispered))
		.orderBy(desc(logMessages.id))
		.limit(1);
	return message && { ...message, paragraph: Number(paragraph) };
}

/** The stage on the line being read (as it stands after every cue when that is not known). */
async function stageOnLine(s: SessionDb, line: Awaited<ReturnType<typeof readingAt>>): Promise<StageState> {
	if (!line) return stageBefore(s.db, undefined);
	const [initial, own] = await Promise.all([stageBefore(s.db, line.id), cues.forMessages(s.db, [line.id])]);
	const paragraphs = parseScript(line.body, { final: true });
	return stageAt(
		initial,
		own.map((c) => c.cue),
		line.paragraph,
		{ paragraphs }
	);
}

/** The stage on the line being read, for the thumbnail: the place and who stands where, with their images. */
async function thumbnail(s: SessionDb, line: Awaited<ReturnType<typeof readingAt>>): Promise<SaveThumbnail> {
	const [stage, images] = await Promise.all([stageOnLine(s, line), stageImages(s.db, s.id)]);
	const url = (list: readonly { name: string; url: string | null; expression?: string | undefined }[], name: string, expression?: string) =>
		list.find((i) => i.name === name && i.expression === expression)?.url ??
		list.find((i) => i.name === name && i.expression === undefined)?.url ??
		null;
	const sprites: SaveThumbnail['sprites'] = [];
	for (const slot of STAGE_SLOTS) {
		const figure = stage.slots[slot];
		if (figure) sprites.push({ slot, name: figure.character, url: url(images.characters, figure.character, figure.expression) });
	}
	const scene = stage.background?.scene;
	return { background: scene === undefined ? null : { name: scene, url: url(images.scenes, scene) }, sprites };
}

/**
 * The last line of the log as the player saw it: the last paragraph of the GM's reply, read with the
 * stage's own parser (the speaker by name, no tag markup), or the player's own line.
 */
function shownLine(last: { role: string; body: string } | undefined, language: Language, at?: number): string {
	if (!last) return '';
	if (last.role !== 'gm') return last.body;
	const said = parseScript(last.body, { final: true }).filter((p) => p.text !== '');
	const paragraph = said.find((p) => p.index === at) ?? said.at(-1);
	if (!paragraph) return '';
	return paragraph.kind === 'dialogue'
		? translate(language, 'saves.spokenLine', { speaker: paragraph.speaker, text: paragraph.text })
		: paragraph.text;
}

/** Where the campaign stands: the last commit, the player turns so far, the line being read (else the last of the log). */
async function point(
	s: SessionDb,
	language: Language,
	line: Awaited<ReturnType<typeof readingAt>>
): Promise<Pick<SaveRow, 'turnSeq' | 'turnNumber' | 'lastLine'>> {
	// Independent reads: sent together, so a remote database costs one round trip of waiting, not three.
	const [seq, played, [last]] = await Promise.all([
		lastSeq(s.db),
		committedPlayerTurns(s.db),
		s.db
			.select({ role: logMessages.role, body: logMessages.body })
			.from(logMessages)
			.where(and(inArray(logMessages.role, ['player', 'gm']), notWhispered))
			.orderBy(desc(logMessages.id))
			.limit(1)
	]);
	const shown = (line ? shownLine({ role: 'gm', body: line.body }, language, line.paragraph) : shownLine(last, language))
		.replace(/\s+/g, ' ')
		.trim();
	return {
		turnSeq: seq,
		turnNumber: played,
		lastLine: shown.length > LAST_LINE_CHARS ? `${shown.slice(0, LAST_LINE_CHARS - 1)}…` : shown
	};
}

/** Makes a database of its own holding a copy of `from`'s records (none is left behind if the copy fails). */
async function copyInto(deps: SavesDeps, from: SessionDb): Promise<string> {
	const id = newId();
	await deps.sessions.createCopy(from, id);
	return id;
}

/**
 * Saves the campaign as it stands into a slot: a named one (refused when all MAX_SAVE_SLOTS are
 * taken), or the quick slot, which replaces the previous quick save. A slot the player did not name
 * is named in the session's language: the name is stored, listed as it is and ends a loaded branch's title.
 */
export async function saveGame(deps: SavesDeps, s: SessionDb, req: SaveRequest, language: Language, now = Date.now()): Promise<SaveDto> {
	// Everything the save reads, sent at once; the refusals are checked in order once they are in.
	const line = await readingAt(s, req.at);
	const [[busy], [taken], where, picture] = await Promise.all([
		unfinishedTurnIds(s.db, 1),
		req.quick ? [undefined] : s.db.select({ n: count() }).from(saves).where(eq(saves.quick, false)),
		point(s, language, line),
		thumbnail(s, line)
	]);
	if (busy) throw new TimeTravelError('busy', 'The GM is still working on a turn. Save once it has finished.');
	if ((taken?.n ?? 0) >= MAX_SAVE_SLOTS)
		throw new TimeTravelError('slots_full', `All ${MAX_SAVE_SLOTS} save slots are taken; delete one first.`);
	const database = await copyInto(deps, s);
	const id = newId();
	const name =
		req.name ?? (req.quick ? translate(language, 'saves.quickName') : translate(language, 'saves.turn', { n: where.turnNumber }));
	const replaced = await s.write(async (tx) => {
		const old = req.quick ? await tx.select({ database: saves.database }).from(saves).where(eq(saves.quick, true)) : [];
		if (req.quick) await tx.delete(saves).where(eq(saves.quick, true));
		await tx
			.insert(saves)
			.values({ id, name, quick: req.quick, database, ...where, thumbnail: picture, at: req.at ?? null, createdAt: now });
		return old.map((o) => o.database);
	});
	for (const db of replaced)
		await deps.sessions
			.destroy(db)
			.catch((err: unknown) =>
				console.warn(`[kantera] removing a replaced quick save's database failed: ${err instanceof Error ? err.message : String(err)}`)
			);
	const [row] = await s.db.select().from(saves).where(eq(saves.id, id));
	if (!row) throw new Error('save vanished');
	return saveDto(row);
}

async function saveRow(s: SessionDb, saveId: string | undefined): Promise<SaveRow> {
	if (!saveId || saveId.length > 64) throw new TimeTravelError('not_found', 'No such save in this session.');
	const [row] = await s.db.select().from(saves).where(eq(saves.id, saveId));
	if (!row) throw new TimeTravelError('not_found', 'No such save in this session.');
	return row;
}

export async function deleteSave(deps: SavesDeps, s: SessionDb, saveId: string | undefined): Promise<void> {
	const row = await saveRow(s, saveId);
	// Queued with the session's other writes (db/write-lock.ts), as every write to it is.
	await s.write((tx) => tx.delete(saves).where(eq(saves.id, row.id)));
	await deps.sessions.destroy(row.database);
}

/** The image keys a session's records refer to: a branch gets its own copy of each. */
async function imageKeys(s: SessionDb): Promise<string[]> {
	const [sprites, backgrounds, orders] = await s.db.batch([
		s.db.select({ k: npcs.spriteImage }).from(npcs),
		s.db.select({ k: scenes.backgroundImage }).from(scenes),
		imageOrders.imageKeysQuery(s.db)
	]);
	const keys = new Set<string>();
	for (const r of [...sprites, ...backgrounds, ...orders]) if (r.k) keys.add(r.k);
	return [...keys];
}

/**
 * Loads a save as a branch: a new session of the same owner, titled after the session and the save,
 * holding the records exactly as they were saved, with the images they show.
 */
export async function loadSave(
	deps: SavesDeps,
	s: SessionDb,
	session: PlaySession,
	saveId: string | undefined,
	now = Date.now()
): Promise<PlaySession & { at: string | null }> {
	const row = await saveRow(s, saveId);
	const suffix = ` — ${row.name}`;
	const title = `${session.title.slice(0, Math.max(1, TITLE_MAX - suffix.length))}${suffix}`.slice(0, TITLE_MAX);
	// The branch's database is made as the save's copy (no empty one first); its images are copied after.
	const { branch, keys } = await deps.sessions.use(row.database, async (saved) => {
		const keys = await imageKeys(saved);
		const database = (id: string) => deps.sessions.createCopy(saved, id);
		return { keys, branch: await createPlaySession(deps, { ownerId: session.ownerId, title, language: session.language, database }, now) };
	});
	try {
		for (const key of keys) {
			const image = await deps.images.store.get(s.id, key);
			if (image) await deps.images.store.put(branch.id, key, image.bytes, image.contentType);
		}
	} catch (err) {
		await deps.images.deleteSession(branch.id).catch(() => undefined);
		await deps.control.db.delete(controlSchema.playSessions).where(eq(controlSchema.playSessions.id, branch.id));
		await deps.sessions.destroy(branch.id).catch(() => undefined);
		throw err;
	}
	// Orders that were still waiting at the save are generated for the branch.
	deps.images.kick(branch.id);
	return { ...branch, at: row.at };
}

/**
 * What the play screen's backlog and side panels read and write beyond the basic record routes:
 * backlog pages with the stage cues needed to replay them, the journal newest first, and the
 * player's edit of a player-visible document.
 *
 * Visibility is the rule here as everywhere in the API: a GM-only document is neither readable nor
 * editable through these helpers, and it answers exactly like a document that does not exist.
 */
import * as v from 'valibot';
import { asc, desc, inArray, lt } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec } from '../db';
import { documents, isRecordError, log, MAX_BODY_CHARS, MAX_NAME_CHARS } from '../records';
import { npcs, scenes, stageBefore, StageCueSchema } from '../stage';
import { imageUrl, isImageKey } from '../images';
import type { BacklogCueDto, BacklogPageDto, StageImageDto, StageImagesDto } from '../../types/panels';
import type { JournalEntryDto } from '../../types/api';
import { IdString, limitParam } from './body';
import { notFound } from './errors';
import { withoutControlCharacters } from '../validation';
import { journalEntryDto, messageDto } from './dto';

const { stageCues, journal } = sessionSchema;

/** Messages per backlog page: a screenful many times over, and small enough to answer at once. */
export const BACKLOG_MAX_PAGE = 200;
export const BACKLOG_DEFAULT_PAGE = 100;
export const JOURNAL_RECENT_MAX_PAGE = 200;
export const JOURNAL_RECENT_DEFAULT_PAGE = 30;

export const BacklogQuery = v.object({
	before: v.optional(IdString),
	after: v.optional(IdString),
	limit: limitParam(BACKLOG_MAX_PAGE, BACKLOG_DEFAULT_PAGE)
});

export const JournalRecentQuery = v.object({
	before: v.optional(IdString),
	limit: limitParam(JOURNAL_RECENT_MAX_PAGE, JOURNAL_RECENT_DEFAULT_PAGE)
});

export const NO_SUCH_DOCUMENT = 'No such document in this session.';

/** The player's edit: the body (may be blank, like a fresh document) and optionally a new title. */
export const DocumentEditBody = v.strictObject({
	title: v.optional(
		v.pipe(
			v.string('title must be a string'),
			withoutControlCharacters('The title'),
			v.trim(),
			v.minLength(1, 'title must not be empty'),
			v.maxLength(MAX_NAME_CHARS, `title has at most ${MAX_NAME_CHARS} characters`),
			v.regex(/^[^\r\n]*$/, 'title must be a single line')
		)
	),
	body: v.pipe(v.string('body must be a string'), withoutControlCharacters('The body'), v.maxLength(MAX_BODY_CHARS, `body has at most ${MAX_BODY_CHARS} characters`))
});
export type DocumentEdit = v.InferOutput<typeof DocumentEditBody>;

/** A document id from the path; anything that is not one is simply not found. */
export function documentIdParam(raw: string | undefined): number {
	const id = v.safeParse(IdString, raw);
	if (!id.success) throw notFound(NO_SUCH_DOCUMENT);
	return id.output;
}

/** Stored cue rows as the browser's timeline takes them; a row whose JSON is not a cue is left out with a warning. */
function toCues(rows: readonly { messageId: number; paragraph: number; ord: number; cue: unknown }[]): BacklogCueDto[] {
	const out: BacklogCueDto[] = [];
	for (const row of rows) {
		const cue = v.safeParse(StageCueSchema, row.cue);
		if (cue.success) out.push({ messageId: row.messageId, paragraph: row.paragraph, ord: row.ord, cue: cue.output });
		else console.warn(`[kantera] a stored stage cue of message ${row.messageId} is not a cue; the backlog skips it`);
	}
	return out;
}

const cueColumns = { messageId: stageCues.messageId, paragraph: stageCues.paragraph, ord: stageCues.ord, cue: stageCues.cue };

/** The cues of these messages, in play order. */
export async function cuesOf(exec: SessionExec, messageIds: readonly number[]): Promise<BacklogCueDto[]> {
	if (messageIds.length === 0) return [];
	const rows = await exec
		.select(cueColumns)
		.from(stageCues)
		.where(inArray(stageCues.messageId, [...messageIds]))
		.orderBy(asc(stageCues.messageId), asc(stageCues.paragraph), asc(stageCues.ord));
	return toCues(rows);
}


function image(name: string, key: string | null, sessionId: string): StageImageDto {
	return { name, url: key !== null && isImageKey(key) ? imageUrl(sessionId, key) : null };
}

/** Every registered character and place with its current image URL (null: placeholder). */
export async function stageImages(exec: SessionExec, sessionId: string): Promise<StageImagesDto> {
	const [characters, places] = await Promise.all([npcs.list(exec), scenes.list(exec)]);
	return {
		characters: characters.map((n) => image(n.name, n.spriteImage, sessionId)),
		scenes: places.map((s) => image(s.name, s.backgroundImage, sessionId))
	};
}

/** A backlog page: `before` pages back from the end, `after` catches up (live play); neither gives the latest page. */
export async function backlogPage(exec: SessionExec, sessionId: string, q: v.InferOutput<typeof BacklogQuery>): Promise<BacklogPageDto> {
	const rows = await log.list(exec, { beforeId: q.before, afterId: q.after, limit: q.limit });
	const first = rows[0];
	const [cues, before, images] = await Promise.all([
		cuesOf(
			exec,
			rows.map((m) => m.id)
		),
		// An empty page still begins somewhere: before `before`, or after everything so far.
		stageBefore(exec, first?.id ?? q.before),
		stageImages(exec, sessionId)
	]);
	return {
		messages: rows.map(messageDto),
		cues,
		stageBefore: before,
		// A full page going backwards may have more before it (as GET …/messages).
		...(first && rows.length === q.limit && q.after === undefined ? { nextBefore: first.id } : {}),
		images
	};
}

/** Journal entries newest last, the `limit` before `before` (or the latest); `nextBefore` pages further back. */
export async function journalRecent(exec: SessionExec, q: v.InferOutput<typeof JournalRecentQuery>): Promise<{ entries: JournalEntryDto[]; nextBefore?: number }> {
	const rows = await exec
		.select()
		.from(journal)
		.where(q.before === undefined ? undefined : lt(journal.id, q.before))
		.orderBy(desc(journal.id))
		.limit(q.limit);
	rows.reverse();
	const first = rows[0];
	return { entries: rows.map(journalEntryDto), ...(first && rows.length === q.limit ? { nextBefore: first.id } : {}) };
}

/**
 * Saves the player's edit of a player-visible document. The visibility check and the write share
 * one transaction, so a document turned GM-only meanwhile is never written through here. The
 * records write re-chunks the document's sections in the same transaction: keyword recall finds the
 * new text at once, and the section triggers queue it for embedding, which the turn runner drains
 * before the next turn. Only title and body change; visibility and ref stay as they were.
 *
 * Allowed while a turn runs: a turn stages its writes and holds no lock while the model thinks, and
 * the GM has no tool that writes documents, so the two never write the same row.
 */
export async function editDocument(s: SessionDb, docId: number, edit: DocumentEdit): Promise<documents.Document> {
	return s.write(async (tx) => {
		let current: documents.Document;
		try {
			current = await documents.get(tx, docId);
		} catch (err) {
			if (isRecordError(err, 'not_found')) throw notFound(NO_SUCH_DOCUMENT);
			throw err;
		}
		if (current.gmOnly) throw notFound(NO_SUCH_DOCUMENT);
		return documents.update(tx, docId, edit.title === undefined ? { body: edit.body } : { title: edit.title, body: edit.body });
	});
}

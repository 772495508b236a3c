/**
 * What the play screen's backlog and side panels read and write beyond the basic record routes: the
 * query of the play log's pages (the pages themselves are `$lib/server/play`'s read model), the
 * journal newest first, and the player's edit of a player-visible document.
 *
 * Visibility is the rule here as everywhere in the API: a GM-only document is neither readable nor
 * editable through these helpers, and it answers exactly like a document that does not exist.
 */
import * as v from 'valibot';
import { desc, lt } from 'drizzle-orm';
import { sessionSchema, type SessionDb, type SessionExec } from '../db';
import { documents, isRecordError, MAX_BODY_CHARS, MAX_NAME_CHARS } from '../records';
import type { JournalPageDto } from '../../types/api';
import { LOG_MAX_PAGE } from '../../types/log';
import { IdString, limitParam } from './body';
import { notFound } from './errors';
import { withoutControlCharacters } from '../validation';
import { journalEntryDto } from './dto';

const { journal } = sessionSchema;

const BACKLOG_DEFAULT_PAGE = 100;
const MESSAGES_DEFAULT_PAGE = 50;
const JOURNAL_RECENT_MAX_PAGE = 200;
export const JOURNAL_RECENT_DEFAULT_PAGE = 30;

/** `?before=&after=&limit=` of the play log's pages; the routes differ only in their default page. */
function logQuery(defaultPage: number) {
	return v.object({ before: v.optional(IdString), after: v.optional(IdString), limit: limitParam(LOG_MAX_PAGE, defaultPage) });
}

/** `GET …/backlog`: pages of the log with their stage. */
export const BacklogQuery = logQuery(BACKLOG_DEFAULT_PAGE);
/** `GET …/messages`: pages of the log alone. */
export const MessagesQuery = logQuery(MESSAGES_DEFAULT_PAGE);

export const JournalRecentQuery = v.object({
	before: v.optional(IdString),
	limit: limitParam(JOURNAL_RECENT_MAX_PAGE, JOURNAL_RECENT_DEFAULT_PAGE)
});

const NO_SUCH_DOCUMENT = 'No such document in this session.';

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
	body: v.pipe(
		v.string('body must be a string'),
		withoutControlCharacters('The body'),
		v.maxLength(MAX_BODY_CHARS, `body has at most ${MAX_BODY_CHARS} characters`)
	)
});
export type DocumentEdit = v.InferOutput<typeof DocumentEditBody>;

/** A document id from the path; anything that is not one is simply not found. */
export function documentIdParam(raw: string | undefined): number {
	const id = v.safeParse(IdString, raw);
	if (!id.success) throw notFound(NO_SUCH_DOCUMENT);
	return id.output;
}

/** Journal entries newest last, the `limit` before `before` (or the latest); `nextBefore` pages further back. */
export async function journalRecent(exec: SessionExec, q: v.InferOutput<typeof JournalRecentQuery>): Promise<JournalPageDto> {
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

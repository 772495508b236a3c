/**
 * Documents: markdown the player and GM share (world setting, premise, PC sheet), or GM-only ones
 * (secrets of a preset). Indexed by heading (`Geography › North › North Gate`); a GM-only document's
 * sections are flagged so player-side reads and searches never see them. A GM-only document may
 * show the player its title (`titleVisible`: another author's world, played spoiler-free): it is
 * listed by name, and everything else about it stays GM-only.
 */
import { and, asc, eq, or } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkMarkdown, PATH_SEPARATOR } from './chunk';
import { addSectionsQueries, deleteSections, replaceSections, type SectionOwner } from './sections';
import { checkBody, checkName, checkRef } from './limits';

const { documents, sections } = sessionSchema;

export type Document = typeof documents.$inferSelect;
export type DocumentInfo = Omit<Document, 'body'>;

export interface DocumentInput {
	readonly title: string;
	/** May be empty: a document can be created first and written later. */
	readonly body: string;
	readonly gmOnly?: boolean;
	/** With `gmOnly`: the player may see the title (never the body or headings). */
	readonly titleVisible?: boolean;
	readonly ref?: string | null;
}

export type DocumentChange = Partial<Omit<DocumentInput, 'titleVisible'>>;

export interface VisibilityOptions {
	/** GM context: true. Anything shown to the player: false. */
	readonly includeGmOnly: boolean;
	/** With `includeGmOnly: false`: also list GM-only documents whose title the player may see (names only). */
	readonly includeVisibleTitles?: boolean;
}

export async function create(tx: SessionTx, input: DocumentInput): Promise<Document> {
	const [row] = await tx.insert(documents).values(newRow(input, Date.now())).returning();
	if (!row) throw new Error('document insert returned no row');
	await index(tx, row);
	return row;
}

/**
 * `create` as queries for a batch, in a database whose ids the caller hands out (a new session's
 * seed): the document under `id` and its sections, nothing read. Checks the input as `create` does.
 */
export function createQueries(db: Pick<SessionDrizzle, 'insert'>, id: number, input: DocumentInput, now: number) {
	const row = { id, ...newRow(input, now) };
	return [db.insert(documents).values(row), ...addSectionsQueries(db, sectionOwner(row), chunkMarkdown(row.title, row.body))];
}

function newRow(input: DocumentInput, now: number) {
	const title = checkName(input.title, 'The document title');
	const body = checkBody(input.body, `The document "${title}"`, true);
	const ref = checkRef(input.ref);
	return { title, body, gmOnly: input.gmOnly ?? false, titleVisible: input.titleVisible ?? false, ref, createdAt: now, updatedAt: now };
}

export async function update(tx: SessionTx, id: number, change: DocumentChange): Promise<Document> {
	const current = await get(tx, id);
	const title = change.title === undefined ? current.title : checkName(change.title, 'The document title');
	const body = change.body === undefined ? current.body : checkBody(change.body, `The document "${title}"`, true);
	const ref = change.ref === undefined ? current.ref : checkRef(change.ref);
	const gmOnly = change.gmOnly ?? current.gmOnly;
	const [row] = await tx.update(documents).set({ title, body, gmOnly, ref, updatedAt: Date.now() }).where(eq(documents.id, id)).returning();
	if (!row) throw new Error('document update returned no row');
	await index(tx, row);
	return row;
}

export async function get(exec: SessionExec, id: number): Promise<Document> {
	const [row] = await exec.select().from(documents).where(eq(documents.id, id));
	if (!row) throw new RecordError('not_found', `There is no document #${id}; list the documents to see their ids.`);
	return row;
}

/** Documents by id, without bodies. */
export async function list(exec: SessionExec, options: VisibilityOptions): Promise<DocumentInfo[]> {
	return listQuery(exec, options);
}

/** `list`'s query, unrun: for a batch. */
export function listQuery(exec: SessionExec, options: VisibilityOptions) {
	return exec
		.select({
			id: documents.id,
			title: documents.title,
			gmOnly: documents.gmOnly,
			titleVisible: documents.titleVisible,
			ref: documents.ref,
			createdAt: documents.createdAt,
			updatedAt: documents.updatedAt
		})
		.from(documents)
		.where(
			options.includeGmOnly
				? undefined
				: options.includeVisibleTitles
					? or(eq(documents.gmOnly, false), eq(documents.titleVisible, true))
					: eq(documents.gmOnly, false)
		)
		.orderBy(asc(documents.id));
}

async function remove(tx: SessionTx, id: number): Promise<void> {
	await get(tx, id);
	await tx.delete(documents).where(eq(documents.id, id));
	await deleteSections(tx, 'document', id);
}
export { remove as delete };

export interface TocEntry {
	readonly id: number;
	readonly title: string;
	readonly gmOnly: boolean;
	/** Full heading paths below the title, in document order (`Geography › North › North Gate`). */
	readonly headings: string[];
}

/** The table of contents the GM's context opens with: every document's title and heading paths. */
export async function toc(exec: SessionExec, options: VisibilityOptions): Promise<TocEntry[]> {
	return tocOf(await list(exec, options), await tocSectionsQuery(exec, options));
}

/** The sections `toc` reads, unrun: for a batch beside `listQuery`; `tocOf` joins the two. */
export function tocSectionsQuery(exec: SessionExec, options: VisibilityOptions) {
	return exec
		.select({ recordId: sections.recordId, path: sections.path })
		.from(sections)
		.where(and(eq(sections.kind, 'document'), options.includeGmOnly ? undefined : eq(sections.gmOnly, false)))
		.orderBy(asc(sections.recordId), asc(sections.ord));
}

export function tocOf(docs: readonly DocumentInfo[], rows: readonly { recordId: number; path: string }[]): TocEntry[] {
	const titles = new Map(docs.map((d) => [d.id, d.title]));
	const headingsById = new Map<number, string[]>();
	for (const row of rows) {
		const list = headingsById.get(row.recordId) ?? [];
		// The title-only section is the title itself; windows repeat their section's path.
		if (row.path !== titles.get(row.recordId) && list[list.length - 1] !== row.path) list.push(row.path);
		headingsById.set(row.recordId, list);
	}
	return docs.map((d) => ({ id: d.id, title: d.title, gmOnly: d.gmOnly, headings: headingsById.get(d.id) ?? [] }));
}

export interface DocumentSection {
	readonly path: string;
	readonly body: string;
}

/**
 * A document's sections in order, optionally only those at or under `path` (what `read_document`
 * returns when asked for one heading). Windows of one section come back as separate entries.
 */
export async function sectionsOf(exec: SessionExec, id: number, options: { path?: string } = {}): Promise<DocumentSection[]> {
	await get(exec, id);
	const rows = await exec
		.select({ path: sections.path, body: sections.body })
		.from(sections)
		.where(and(eq(sections.kind, 'document'), eq(sections.recordId, id)))
		.orderBy(asc(sections.ord));
	const wanted = options.path;
	if (wanted === undefined) return rows;
	const found = rows.filter((r) => r.path === wanted || r.path.startsWith(wanted + PATH_SEPARATOR));
	if (found.length === 0)
		throw new RecordError('not_found', `Document #${id} has no heading "${wanted}"; read its table of contents for the exact paths.`);
	return found;
}

function sectionOwner(doc: Pick<Document, 'id' | 'gmOnly' | 'ref'>): SectionOwner {
	return { kind: 'document', recordId: doc.id, gmOnly: doc.gmOnly, ref: doc.ref };
}

async function index(tx: SessionTx, doc: Document): Promise<void> {
	await replaceSections(tx, sectionOwner(doc), chunkMarkdown(doc.title, doc.body));
}

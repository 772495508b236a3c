/** read_document: the second layer of the two-layer context — the table of contents is always there, bodies are read on demand. */
import * as v from 'valibot';
import { documents, isRecordError, MAX_NAME_CHARS, PATH_SEPARATOR, type RecordError } from '../../records';
import type { SessionExec } from '../../db';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { ToolError } from '../run';
import { quote, recordId, recorded, text } from './shared';

/** A reply longer than this is cut, with the headings listed so the GM can read a section instead. */
const MAX_READ_CHARS = 10_000;
const MAX_SECTION_PATH_CHARS = 500;
/** How many headings an error or a cut reply lists. */
const MAX_LISTED_HEADINGS = 40;

const schema = v.object({
	id: v.optional(recordId("or a recall hit's recordId")),
	title: v.optional(text(MAX_NAME_CHARS)),
	section: v.optional(text(MAX_SECTION_PATH_CHARS))
});

export const readDocumentTool = defineTool({
	name: 'read_document',
	description: 'Read a document by id or title, or one section by heading path ("A › B").',
	schema,
	async handler(args, ctx: ToolContext) {
		return ctx.read(async (exec) => {
			const doc = await recorded(() => findDocument(exec, args));
			const head = `Document #${doc.id} ${quote(doc.title)}${doc.gmOnly ? ' (GM-only: never show or quote it to the player)' : ''}`;
			if (args.section === undefined) return `${head}\n\n${cut(doc.body, await headingsOf(exec, doc.id))}`;
			const path = sectionPath(doc.title, args.section);
			let found: documents.DocumentSection[];
			try {
				found = await documents.sectionsOf(exec, doc.id, { path });
			} catch (err) {
				if (!isRecordError(err, 'not_found')) throw err;
				throw new ToolError(missingSection(doc.id, path, await headingsOf(exec, doc.id), err));
			}
			return `${head}\n\n${cut(render(found), [])}`;
		});
	}
});

async function findDocument(exec: SessionExec, args: { id?: number | undefined; title?: string | undefined }): Promise<documents.Document> {
	if (args.id !== undefined) return documents.get(exec, args.id);
	const all = await documents.list(exec, { includeGmOnly: true });
	if (args.title === undefined) throw new ToolError(`give the document "id" or its "title". Documents: ${listing(all)}.`);
	const wanted = args.title.trim();
	const match = all.find((d) => d.title === wanted) ?? all.find((d) => d.title.toLowerCase() === wanted.toLowerCase());
	if (!match) throw new ToolError(`there is no document titled ${quote(wanted)}. Documents: ${listing(all)}.`);
	return documents.get(exec, match.id);
}

function listing(all: documents.DocumentInfo[]): string {
	return all.length === 0 ? '(none)' : all.map((d) => `#${d.id} ${quote(d.title)}`).join(', ');
}

/** Accepts `A › B`, `A > B`, with or without the document title in front. */
function sectionPath(title: string, section: string): string {
	const parts = section
		.split(/\s*[›>]\s*/)
		.map((p) => p.trim())
		.filter((p) => p !== '');
	if (parts[0] !== title) parts.unshift(title);
	return parts.join(PATH_SEPARATOR);
}

async function headingsOf(exec: SessionExec, id: number): Promise<string[]> {
	const all = await documents.sectionsOf(exec, id);
	return [...new Set(all.map((s) => s.path))];
}

function missingSection(id: number, path: string, headings: string[], err: RecordError): string {
	if (headings.length === 0) return err.message;
	return `document #${id} has no section ${quote(path)}. Its sections: ${headings.slice(0, MAX_LISTED_HEADINGS).map(quote).join(', ')}.`;
}

/** Consecutive windows of one section come back as separate rows; they read as one. */
function render(found: documents.DocumentSection[]): string {
	const merged: { path: string; bodies: string[] }[] = [];
	for (const s of found) {
		const last = merged[merged.length - 1];
		if (last && last.path === s.path) last.bodies.push(s.body);
		else merged.push({ path: s.path, bodies: [s.body] });
	}
	return merged.map((m) => `## ${m.path}\n${m.bodies.join('\n\n')}`.trimEnd()).join('\n\n');
}

function cut(body: string, headings: string[]): string {
	if (body.length <= MAX_READ_CHARS) return body;
	const list = headings.length > 0 ? ` Sections: ${headings.slice(0, MAX_LISTED_HEADINGS).map(quote).join(', ')}.` : '';
	return `${body.slice(0, MAX_READ_CHARS)}\n…(cut at ${MAX_READ_CHARS} of ${body.length} \
characters; read the rest one section at a time with "section".${list})`;
}

/** memory: the GM's named free-form notes, one tool with an `action`. */
import * as v from 'valibot';
import { MAX_NAME_CHARS, memory } from '../../records';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { quote, recorded, text } from './shared';

/** A note is a page of notes, not a document; world text belongs in documents. */
const MAX_NOTE_CHARS = 20_000;

/** A note told to a crowd is common knowledge: the GM says so in the note, not by naming everyone. */
const MAX_KNOWN_BY = 12;

const MEMORY_ACTIONS = ['create', 'edit', 'view', 'delete', 'list'] as const;

const noteName = () => text(MAX_NAME_CHARS);
const noteBody = () => text(MAX_NOTE_CHARS);
const oldText = () => text(MAX_NOTE_CHARS);
const newText = () => v.pipe(v.string(), v.maxLength(MAX_NOTE_CHARS));
/** The characters who know what the note says (issue 27): recall's known_by finds it for them. */
const knownBy = () => v.pipe(v.array(text(MAX_NAME_CHARS)), v.maxLength(MAX_KNOWN_BY));

/** What the provider sees: one flat object. */
const flat = v.object({
	action: v.picklist(MEMORY_ACTIONS),
	name: v.optional(noteName()),
	body: v.optional(noteBody()),
	old_text: v.optional(oldText()),
	new_text: v.optional(newText()),
	known_by: v.optional(knownBy())
});

/** What each action needs. */
const exact = v.variant('action', [
	v.object(
		{ action: v.literal('create'), name: noteName(), body: noteBody(), known_by: v.optional(knownBy()) },
		'create needs "name" and "body"'
	),
	v.pipe(
		v.object(
			{
				action: v.literal('edit'),
				name: noteName(),
				body: v.optional(noteBody()),
				old_text: v.optional(oldText()),
				new_text: v.optional(newText()),
				known_by: v.optional(knownBy())
			},
			'edit needs "name"'
		),
		v.check(
			(a) => (a.body !== undefined) !== (a.old_text !== undefined && a.new_text !== undefined),
			'edit needs either "body" (the whole new text) or both "old_text" and "new_text", not both'
		)
	),
	v.object({ action: v.literal('view'), name: noteName() }, 'view needs "name"'),
	v.object({ action: v.literal('delete'), name: noteName() }, 'delete needs "name"'),
	v.object({ action: v.literal('list') })
]);

export const memoryTool = defineTool({
	name: 'memory',
	description: 'Your named notes (secrets go in the story DB). edit: body, or old_text + new_text.',
	schema: v.pipe(flat, exact),
	async handler(args, ctx: ToolContext) {
		switch (args.action) {
			case 'create': {
				const note = await recorded(() =>
					ctx.write((tx) => memory.create(tx, { name: args.name, body: args.body, ...(args.known_by ? { knownBy: args.known_by } : {}) }))
				);
				return `Note ${quote(note.name)} created.`;
			}
			case 'edit': {
				const change = args.body ?? { old: args.old_text ?? '', new: args.new_text ?? '' };
				const note = await recorded(() => ctx.write((tx) => memory.edit(tx, args.name, change, args.known_by)));
				return `Note ${quote(note.name)} updated.`;
			}
			case 'view': {
				const note = await recorded(() => ctx.read((exec) => memory.view(exec, args.name)));
				return `# ${note.name}\n\n${note.body}`;
			}
			case 'delete': {
				await recorded(() => ctx.write((tx) => memory.delete(tx, args.name)));
				return `Note ${quote(args.name)} deleted.`;
			}
			case 'list': {
				const notes = await ctx.read((exec) => memory.list(exec));
				return notes.length === 0 ? 'There are no notes yet.' : { notes: notes.map((n) => n.name) };
			}
		}
	}
});

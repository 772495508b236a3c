/**
 * Memory: the GM's named free-form notes (NPCs, foreshadowing, player preferences). Notes are
 * created, viewed, rewritten or edited by an exact find/replace, and deleted. A note may use
 * markdown headings; it is indexed by them under `Memory › <name>`.
 */
import { asc, eq } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkMarkdown } from './chunk';
import { deleteSections, replaceSections } from './sections';
import { checkBody, checkName, checkRef } from './limits';
import { PATH_ROOT } from './paths';
import * as witnesses from './witnesses';

const { memoryNotes } = sessionSchema;

export type MemoryNote = typeof memoryNotes.$inferSelect;
export type MemoryNoteInfo = Omit<MemoryNote, 'body'>;

export interface MemoryInput {
	readonly name: string;
	readonly body: string;
	readonly ref?: string | null;
	/** The characters who know what the note says (witnessed it, or were told). */
	readonly knownBy?: readonly string[];
}

/** An exact find/replace: `old` must occur exactly once in the note. */
export interface MemoryReplace {
	readonly old: string;
	readonly new: string;
}

export async function create(tx: SessionTx, input: MemoryInput): Promise<MemoryNote> {
	const name = checkName(input.name, 'The note name');
	const body = checkBody(input.body, `The note "${name}"`);
	const ref = checkRef(input.ref);
	if (await find(tx, name)) {
		throw new RecordError('duplicate', `A note named "${name}" already exists; edit it, or create the new note under another name.`);
	}
	const now = Date.now();
	const [row] = await tx.insert(memoryNotes).values({ name, body, ref, createdAt: now, updatedAt: now }).returning();
	if (!row) throw new Error('memory insert returned no row');
	await index(tx, row);
	await witnesses.set(tx, 'memory', row.id, input.knownBy ?? []);
	return row;
}

/**
 * Replaces the whole body (a string) or exactly one occurrence of `old` (a MemoryReplace); `knownBy`,
 * when given, replaces who knows the note.
 */
export async function edit(tx: SessionTx, name: string, change: string | MemoryReplace, knownBy?: readonly string[]): Promise<MemoryNote> {
	const note = await view(tx, name);
	const body = checkBody(typeof change === 'string' ? change : replaceOnce(note, change), `The note "${note.name}"`);
	const [row] = await tx.update(memoryNotes).set({ body, updatedAt: Date.now() }).where(eq(memoryNotes.id, note.id)).returning();
	if (!row) throw new Error('memory update returned no row');
	await index(tx, row);
	if (knownBy !== undefined) await witnesses.set(tx, 'memory', row.id, knownBy);
	return row;
}

function replaceOnce(note: MemoryNote, change: MemoryReplace): string {
	if (change.old === '')
		throw new RecordError('invalid_input', 'The text to replace is empty; quote the exact text of the note to change.');
	const matches = note.body.split(change.old).length - 1;
	if (matches === 0) {
		throw new RecordError(
			'invalid_input',
			`The text to replace was not found in the note "${note.name}"; view the note and copy the exact text.`
		);
	}
	if (matches > 1) {
		throw new RecordError(
			'invalid_input',
			`The text to replace occurs ${matches} times in the note "${note.name}"; include more of the surrounding text so it matches exactly once.`
		);
	}
	const at = note.body.indexOf(change.old);
	return note.body.slice(0, at) + change.new + note.body.slice(at + change.old.length);
}

export async function view(exec: SessionExec, name: string): Promise<MemoryNote> {
	const note = await find(exec, name.trim());
	if (!note) throw new RecordError('not_found', `There is no note named "${name.trim()}"; list the notes to see their names.`);
	return note;
}

async function remove(tx: SessionTx, name: string): Promise<void> {
	const note = await view(tx, name);
	await tx.delete(memoryNotes).where(eq(memoryNotes.id, note.id));
	await deleteSections(tx, 'memory', note.id);
	await witnesses.set(tx, 'memory', note.id, []);
}
export { remove as delete };

/** All notes by name, without their bodies. */
export async function list(exec: SessionExec): Promise<MemoryNoteInfo[]> {
	return exec
		.select({
			id: memoryNotes.id,
			name: memoryNotes.name,
			ref: memoryNotes.ref,
			createdAt: memoryNotes.createdAt,
			updatedAt: memoryNotes.updatedAt
		})
		.from(memoryNotes)
		.orderBy(asc(memoryNotes.name));
}

async function find(exec: SessionExec, name: string): Promise<MemoryNote | undefined> {
	const [row] = await exec.select().from(memoryNotes).where(eq(memoryNotes.name, name));
	return row;
}

async function index(tx: SessionTx, note: MemoryNote): Promise<void> {
	await replaceSections(
		tx,
		{ kind: 'memory', recordId: note.id, gmOnly: false, ref: note.ref },
		chunkMarkdown([PATH_ROOT.memory, note.name], note.body)
	);
}

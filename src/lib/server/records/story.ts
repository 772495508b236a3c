/**
 * The story DB, GM-only: the plot skeleton, confirmed truths, quests and clues. Every section it
 * writes is flagged GM-only, whatever the caller asks.
 * - plot: set and revised by key.
 * - truth: append-only; a key, once written, can never be written again.
 * - quest: begun open, then resolved/failed/abandoned once, saving its result and the next plan together.
 * - clue: added hidden, later revealed.
 * A clue or a truth is revealed to the player by key (`reveal`): until then a world's secret under
 * that key keeps its markers out of the GM's words (canon/).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { chunkPlain } from './chunk';
import { addSectionsQueries, replaceSections, type SectionOwner } from './sections';
import { checkBody, checkName, checkRef } from './limits';
import { PATH_ROOT } from './paths';
import * as witnesses from './witnesses';

const { storyEntries } = sessionSchema;

export const STORY_TYPES = ['plot', 'truth', 'quest', 'clue'] as const;
export type StoryType = (typeof STORY_TYPES)[number];
export const QUEST_ENDINGS = ['resolved', 'failed', 'abandoned'] as const;
type QuestEnding = (typeof QUEST_ENDINGS)[number];
export type QuestStatus = 'open' | QuestEnding;
export type StoryEntry = typeof storyEntries.$inferSelect;

export interface StoryInput {
	/** Stable handle the GM refers to the entry by. */
	readonly key: string;
	/** Display title; the key when absent. */
	readonly title?: string;
	readonly body: string;
	readonly ref?: string | null;
}

/** Creates the plot entry `key`, or revises it when it exists (keeping its title and ref unless given). */
export async function setPlot(tx: SessionTx, input: StoryInput): Promise<StoryEntry> {
	const fields = checkInput(input);
	const existing = await find(tx, 'plot', fields.key);
	if (!existing) return insert(tx, 'plot', fields, {});
	const [row] = await tx
		.update(storyEntries)
		.set({
			title: input.title === undefined ? existing.title : fields.title,
			body: fields.body,
			ref: fields.ref ?? existing.ref,
			updatedAt: Date.now()
		})
		.where(eq(storyEntries.id, existing.id))
		.returning();
	if (!row) throw new Error('story update returned no row');
	await index(tx, row);
	return row;
}

/**
 * Records a confirmed truth. Truths are never overwritten: an existing key is refused. `witnesses`:
 * the characters who saw it come to light.
 */
export async function addTruth(tx: SessionTx, input: StoryInput & { witnesses?: readonly string[] }): Promise<StoryEntry> {
	const fields = checkInput(input);
	if (await find(tx, 'truth', fields.key)) {
		throw new RecordError(
			'truth_exists',
			`The truth "${fields.key}" is already confirmed and truths can't be overwritten. If the \
story has moved on, add a new truth under a new key that states what is true now.`
		);
	}
	const row = await insert(tx, 'truth', fields, {});
	await witnesses.set(tx, 'story', row.id, input.witnesses ?? []);
	return row;
}

export async function beginQuest(tx: SessionTx, input: StoryInput): Promise<StoryEntry> {
	const fields = checkInput(input);
	const existing = await find(tx, 'quest', fields.key);
	if (existing) {
		throw new RecordError(
			'duplicate',
			`A quest "${fields.key}" already exists (status ${existing.status ?? 'open'}); use another key for a new quest.`
		);
	}
	return insert(tx, 'quest', fields, { status: 'open' });
}

export interface QuestResolution {
	readonly key: string;
	readonly status: QuestEnding;
	/** What happened. */
	readonly result: string;
	/** What the GM plans next because of it. */
	readonly nextPlan: string;
}

/** Closes an open quest, saving its result and the next plan in the same write. */
export async function resolveQuest(tx: SessionTx, input: QuestResolution): Promise<StoryEntry> {
	const key = checkName(input.key, 'The quest key');
	if (!QUEST_ENDINGS.some((s) => s === input.status)) {
		throw new RecordError('invalid_input', `A quest ends as ${QUEST_ENDINGS.join(', ')}; got "${String(input.status)}".`);
	}
	const result = checkBody(input.result, 'The quest result');
	const nextPlan = checkBody(input.nextPlan, 'The next plan');
	const quest = await find(tx, 'quest', key);
	if (!quest) throw new RecordError('not_found', `There is no quest "${key}"; read the story DB for the open quests.`);
	if (quest.status !== 'open') {
		throw new RecordError(
			'conflict',
			`The quest "${key}" is already ${quest.status ?? 'closed'}; begin a new quest to continue the thread.`
		);
	}
	const [row] = await tx
		.update(storyEntries)
		.set({ status: input.status, result, nextPlan, updatedAt: Date.now() })
		.where(eq(storyEntries.id, quest.id))
		.returning();
	if (!row) throw new Error('story update returned no row');
	await index(tx, row);
	return row;
}

/** Adds a clue, hidden from the player's view of the story until revealed. */
export async function addClue(tx: SessionTx, input: StoryInput): Promise<StoryEntry> {
	const fields = checkInput(input);
	if (await find(tx, 'clue', fields.key)) throw new RecordError('duplicate', `A clue "${fields.key}" already exists; use another key.`);
	return insert(tx, 'clue', fields, { revealed: false });
}

/**
 * Reveals `key` to the player: its clue, its truth, or both (a world's secret is a truth under its key,
 * and a clue may share the key). What a reveal means beyond the flag — the GM may now say it — is the
 * canon guard's (canon/). Revealing again changes nothing.
 */
export async function reveal(tx: SessionTx, key: string): Promise<StoryEntry[]> {
	const checked = checkName(key, 'The key');
	const entries = (await Promise.all([find(tx, 'clue', checked), find(tx, 'truth', checked)])).filter((e) => e !== undefined);
	if (entries.length === 0) throw new RecordError('not_found', `There is no clue or truth "${checked}"; read the story DB for the keys.`);
	const out: StoryEntry[] = [];
	for (const entry of entries) {
		if (entry.revealed) {
			out.push(entry);
			continue;
		}
		const [row] = await tx
			.update(storyEntries)
			.set({ revealed: true, updatedAt: Date.now() })
			.where(eq(storyEntries.id, entry.id))
			.returning();
		if (!row) throw new Error('story update returned no row');
		await index(tx, row);
		out.push(row);
	}
	return out;
}

/** The keys revealed to the player (clues and truths), unrun: for the turn's start batch. */
export function revealedKeysQuery(exec: Pick<SessionExec, 'select'>) {
	return exec
		.select({ key: storyEntries.key })
		.from(storyEntries)
		.where(and(eq(storyEntries.revealed, true), inArray(storyEntries.type, ['truth', 'clue'])));
}

export async function get(exec: SessionExec, type: StoryType, key: string): Promise<StoryEntry> {
	const entry = await find(exec, type, key.trim());
	if (!entry) throw new RecordError('not_found', `There is no ${type} "${key.trim()}" in the story DB.`);
	return entry;
}

/** Entries in the order they were written, optionally of one type. */
export async function read(exec: SessionExec, options: { type?: StoryType } = {}): Promise<StoryEntry[]> {
	return exec
		.select()
		.from(storyEntries)
		.where(options.type === undefined ? undefined : eq(storyEntries.type, options.type))
		.orderBy(asc(storyEntries.id));
}

interface CheckedInput {
	key: string;
	title: string;
	body: string;
	ref: string | null;
}

function checkInput(input: StoryInput): CheckedInput {
	const key = checkName(input.key, 'The story key');
	const title = input.title === undefined ? key : checkName(input.title, 'The story title');
	return { key, title, body: checkBody(input.body, `The story entry "${key}"`), ref: checkRef(input.ref) };
}

async function find(exec: SessionExec, type: StoryType, key: string): Promise<StoryEntry | undefined> {
	const [row] = await exec
		.select()
		.from(storyEntries)
		.where(and(eq(storyEntries.type, type), eq(storyEntries.key, key)));
	return row;
}

interface EntryExtra {
	status?: QuestStatus;
	revealed?: boolean;
}

async function insert(tx: SessionTx, type: StoryType, fields: CheckedInput, extra: EntryExtra): Promise<StoryEntry> {
	const [row] = await tx
		.insert(storyEntries)
		.values(newRow(type, fields, extra, Date.now()))
		.returning();
	if (!row) throw new Error('story insert returned no row');
	await index(tx, row);
	return row;
}

function newRow(type: StoryType, fields: CheckedInput, extra: EntryExtra, now: number) {
	return { type, ...fields, status: extra.status ?? null, revealed: extra.revealed ?? null, createdAt: now, updatedAt: now };
}

/**
 * A new plot or truth as queries for a batch, in a database whose ids the caller hands out (a new
 * session's seed): the entry under `id` and its sections, nothing read. A key already there fails
 * the batch on the (type, key) index, where `setPlot` would revise it and `addTruth` refuse it.
 */
export function addQueries(db: Pick<SessionDrizzle, 'insert'>, id: number, type: 'plot' | 'truth', input: StoryInput, now: number) {
	const row = { id, ...newRow(type, checkInput(input), {}, now) };
	const entry: StoryEntry = { ...row, result: null, nextPlan: null };
	return [db.insert(storyEntries).values(row), ...addSectionsQueries(db, sectionOwner(entry), sectionsOf(entry))];
}

/** The indexed text: the body plus the quest outcome or clue state, so recall shows where things stand. */
function sectionText(entry: StoryEntry): string {
	const lines = [entry.body];
	if (entry.type === 'quest') {
		lines.push('', `Status: ${entry.status ?? 'open'}`);
		if (entry.result) lines.push(`Result: ${entry.result}`);
		if (entry.nextPlan) lines.push(`Next plan: ${entry.nextPlan}`);
	}
	if (entry.type === 'clue') lines.push('', entry.revealed ? 'Revealed: yes' : 'Revealed: no');
	if (entry.type === 'truth' && entry.revealed) lines.push('', 'Revealed to the player: yes');
	return lines.join('\n');
}

function sectionOwner(entry: StoryEntry): SectionOwner {
	return { kind: 'story', recordId: entry.id, gmOnly: true, ref: entry.ref };
}

function sectionsOf(entry: StoryEntry) {
	return chunkPlain([PATH_ROOT.story, entry.type, entry.title], sectionText(entry));
}

async function index(tx: SessionTx, entry: StoryEntry): Promise<void> {
	await replaceSections(tx, sectionOwner(entry), sectionsOf(entry));
}

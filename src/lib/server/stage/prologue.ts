/**
 * The opening a new session plays before the first turn, with no LLM call: a title card (the
 * world's title and tagline over its cover, the opening scene) and a prologue — the premise, then
 * the opening scene narrated with the characters present walking on stage. The prologue is an
 * ordinary GM message of the play log with its stage cues, so the screen, the backlog and the
 * stage replay read it like any reply; the first turn's context gets it (see `openingText`) so the
 * GM continues from it.
 *
 * Everything here is built from a preset's player-visible fields (premise, scene name and visual
 * description, names and roles of the characters present, the author's opening narration): nothing
 * GM-only reaches the player.
 */
import { and, asc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { meta, sessionSchema, type SessionDrizzle, type SessionExec } from '../db';
import { log } from '../records';
import { parseScript, STAGE_SLOTS, type StageCue, type StageSlot, type StageState } from '../../adv';
import type { Language } from '../../types/settings';
import { PROLOGUE_TURN_ID } from '../../types/log';
import * as cues from './cues';
import { openingOf, openingQuery, stageAt, stageBefore } from './timeline';

const { logMessages } = sessionSchema;

/** The turn id the prologue's message and cues are filed under (no turn ran: no LLM was called). */
export { PROLOGUE_TURN_ID };
/** The premise is the prologue's opening, not a chapter: a longer one is left to the Documents. */
const MAX_PROLOGUE_PREMISE_PARAGRAPHS = 6;

/** What a prologue is made of: a preset's player-visible fields. */
export interface PrologueSource {
	readonly language: Language;
	readonly title: string;
	readonly tagline: string;
	/** The premise document's text (Markdown). */
	readonly premise: string;
	readonly scene: { readonly name: string; readonly description: string };
	/** The characters on stage when play begins, in slot order, with their player-visible role. */
	readonly present: readonly { readonly name: string; readonly role: string }[];
	/** What the author wrote for the player to read once the stage is set (the screen's script); may be empty. */
	readonly narration?: string;
}

export const TitleCardSchema = v.object({ title: v.string(), tagline: v.string(), scene: v.nullable(v.string()) });
/** What the title card shows: the world's title and tagline over the opening scene. */
export type TitleCard = v.InferOutput<typeof TitleCardSchema>;

/** Where the characters present stand: one in the middle, two facing each other, three across. */
function slotsFor(count: number): readonly StageSlot[] {
	if (count === 1) return ['center'];
	if (count === 2) return ['left', 'right'];
	return STAGE_SLOTS.slice(0, count);
}

/** Markdown to narration: no heading marks or emphasis, and never a line the script reads as a speaker tag. */
function plain(paragraph: string): string {
	return paragraph
		.split('\n')
		.map((line) =>
			line
				.replace(/^\s{0,3}#{1,6}\s+/, '')
				.replace(/(\*\*|__)(.+?)\1/g, '$2')
				.replace(/(^|[^\w*])[*_](\S[^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
				.replace(/^\s*[@＠]+/, '')
				.trimEnd()
		)
		.join('\n')
		.trim();
}

function premiseParagraphs(premise: string): string[] {
	return premise
		.replace(/\r\n?/g, '\n')
		.split(/\n[^\S\n]*\n\s*/)
		.map(plain)
		.filter((p) => p !== '')
		.slice(0, MAX_PROLOGUE_PREMISE_PARAGRAPHS);
}

const WORDS = {
	ja: {
		scene: (name: string, description: string) => `${name}――${description}`,
		person: (name: string, role: string) => (role.includes(name) ? end(role, '。') : `${name}――${end(role, '。')}`)
	},
	en: {
		scene: (name: string, description: string) => `${name}. ${description}`,
		person: (name: string, role: string) => (role.includes(name) ? end(role, '.') : `${name} — ${end(role, '.')}`)
	}
} as const;

/** A sentence ends with a full stop unless it ends with some other closing punctuation already. */
function end(text: string, stop: string): string {
	const t = text.trim();
	return /[.!?。！？」』）)]$/u.test(t) ? t : `${t}${stop}`;
}

/** The prologue's text (paragraphs separated by blank lines) and its stage cues. */
export function composePrologue(source: PrologueSource): { body: string; cues: StageCue[] } {
	const words = WORDS[source.language];
	const paragraphs = premiseParagraphs(source.premise);
	const stageCues: StageCue[] = [];
	const scene = paragraphs.length;
	paragraphs.push(plain(words.scene(source.scene.name, source.scene.description.replace(/\s+/g, ' ').trim())));
	stageCues.push({ paragraph: scene, action: 'background', scene: source.scene.name });
	const slots = slotsFor(source.present.length);
	source.present.forEach((person, i) => {
		const slot = slots[i];
		if (!slot) return;
		stageCues.push({ paragraph: paragraphs.length, action: 'enter', character: person.name, slot });
		paragraphs.push(plain(words.person(person.name, person.role)));
	});
	paragraphs.push(...narrationParagraphs(source.narration ?? ''));
	return { body: paragraphs.join('\n\n'), cues: stageCues };
}

/**
 * The author's narration as script paragraphs: a line of dialogue (`@Name: …`) is kept as the
 * script reads it; any other paragraph is narration, cleaned like the premise.
 */
function narrationParagraphs(narration: string): string[] {
	return narration
		.replace(/\r\n?/g, '\n')
		.split(/\n[^\S\n]*\n\s*/)
		.map((p) => p.trim())
		.filter((p) => p !== '')
		.map((p) => (parseScript(p, { final: true })[0]?.kind === 'dialogue' ? p : plain(p)))
		.filter((p) => p !== '');
}

/**
 * The title card and the prologue (a GM message with its cues) as queries for a new session's seed
 * batch: the message goes in under `messageId`, handed out by the caller (its sections' paths and the
 * cues name it in the same batch).
 */
export function prologueQueries(db: Pick<SessionDrizzle, 'insert'>, source: PrologueSource, messageId: number, now: number) {
	const { body, cues: stageCues } = composePrologue(source);
	return [
		titleCardQuery(db, source),
		...log.appendQueries(db, messageId, prologueMessage(body), now),
		...cues.saveQueries(db, { turnId: PROLOGUE_TURN_ID, messageId, cues: stageCues })
	];
}

/** The title card's write, unrun (awaited on a transaction, it runs there). */
export function titleCardQuery(db: Pick<SessionDrizzle, 'insert'>, source: PrologueSource) {
	const card: TitleCard = { title: source.title, tagline: source.tagline, scene: source.scene.name };
	return meta.putJsonQuery(db, 'stage.titleCard', card);
}

export const prologueMessage = (body: string): log.LogInput => ({ role: 'gm', body, turnId: PROLOGUE_TURN_ID, ref: 'prologue' });

/** The session's title card, or null (a session started without a world, or before prologues existed). */
export async function titleCard(exec: SessionExec): Promise<TitleCard | null> {
	return meta.readJson(exec, 'stage.titleCard', TitleCardSchema);
}

/** The prologue as plain text (what the player has read before the first turn), or undefined. */
export async function prologueText(exec: SessionExec): Promise<string | undefined> {
	const [row] = await exec
		.select({ body: logMessages.body })
		.from(logMessages)
		.where(and(eq(logMessages.turnId, PROLOGUE_TURN_ID), eq(logMessages.role, 'gm')))
		.orderBy(asc(logMessages.id))
		.limit(1);
	if (!row) return undefined;
	return parseScript(row.body, { final: true })
		.map((p) => p.text)
		.join('\n\n');
}

/**
 * The opening for the GM's first context: the prologue as the player read it. The stage it left
 * (background, who stands where) reaches the GM through `stageNow`, like every later turn's.
 */
export async function openingContext(exec: SessionExec): Promise<string | undefined> {
	return prologueText(exec);
}

/**
 * The stage as the player sees it now, in one line, for every context: without it the GM loses track
 * of who stands where after its first reply and re-enters characters already on stage or talks to
 * someone who left.
 */
export async function stageNow(exec: SessionExec): Promise<string> {
	return stageLine(await stageBefore(exec, undefined));
}

function stageLine(stage: StageState): string {
	const standing = STAGE_SLOTS.flatMap((slot) => {
		const figure = stage.slots[slot];
		return figure ? [`${figure.character} (${slot})`] : [];
	});
	const where = stage.background ? `Background: ${stage.background.scene}.` : 'No background.';
	const music = stage.music === undefined ? '' : ` Music: ${stage.music}.`;
	return `[Stage now] ${where} On stage: ${standing.length > 0 ? standing.join(', ') : 'nobody'}.${music}`;
}

/** The reads of `stageNow`, unrun, for the turn's start batch (one round trip with the records it reads). */
export function stageNowQueries(db: SessionDrizzle) {
	return [openingQuery(db), cues.beforeQuery(db, undefined)] as const;
}

/** The stage now from the rows of `stageNowQueries`. */
export function stageStateOf(opening: Awaited<ReturnType<typeof openingQuery>>, cueRows: Parameters<typeof cues.toRows>[0]): StageState {
	return stageAt(openingOf(opening), cues.toRows(cueRows), undefined);
}

/** `stageNow` from the rows of `stageNowQueries`. */
export function stageNowOf(opening: Awaited<ReturnType<typeof openingQuery>>, cueRows: Parameters<typeof cues.toRows>[0]): string {
	return stageLine(stageStateOf(opening, cueRows));
}

/**
 * ADV stage cues: enter, exit, move, expression and background changes tied to paragraphs of a GM
 * message. Collected during a turn, saved with the turn's GM message in its commit, and read back so
 * the screen (and the backlog) can replay the stage each message had.
 */
import { asc, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import { stageCues } from '../db/session-schema';
import type { SessionExec, SessionTx } from '../db';
import { MAX_CHARACTER_NAME_CHARS, MAX_STAGE_NAME_CHARS } from './limits';
import { MAX_TAG_EXPRESSION_CHARS } from '../../adv';

export const STAGE_ACTIONS = ['enter', 'exit', 'move', 'expression', 'background'] as const;
export type StageAction = (typeof STAGE_ACTIONS)[number];
/** The screen has three sprite positions. */
export const STAGE_SLOTS = ['left', 'center', 'right'] as const;
export type StageSlot = (typeof STAGE_SLOTS)[number];
/** An expression is a short word (smile, angry, 驚き), the key of a sprite variant. */
export const MAX_EXPRESSION_CHARS = MAX_TAG_EXPRESSION_CHARS;
/** A reply longer than this many paragraphs is not a reply; the bound keeps cue indexes sane. */
export const MAX_PARAGRAPH = 500;

/** A stored cue, as the screen reads it. Stored JSON is outside data: it is checked on the way out. */
export const StageCueSchema = v.object({
	paragraph: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_PARAGRAPH)),
	action: v.picklist(STAGE_ACTIONS),
	character: v.optional(v.pipe(v.string(), v.maxLength(MAX_CHARACTER_NAME_CHARS))),
	slot: v.optional(v.picklist(STAGE_SLOTS)),
	expression: v.optional(v.pipe(v.string(), v.maxLength(MAX_EXPRESSION_CHARS))),
	scene: v.optional(v.pipe(v.string(), v.maxLength(MAX_STAGE_NAME_CHARS)))
});
export type StageCue = v.InferOutput<typeof StageCueSchema>;

export interface SaveCuesInput {
	readonly turnId: string;
	/** The play-log message (the GM's reply) the cues belong to. */
	readonly messageId: number;
	readonly cues: readonly StageCue[];
}

/** Saves a message's cues in the order the GM gave them; call in the turn's commit. */
export async function save(tx: SessionTx, input: SaveCuesInput): Promise<number> {
	if (input.cues.length === 0) return 0;
	const rows = input.cues.map((cue, ord) => {
		const checked = v.parse(StageCueSchema, cue);
		return { turnId: input.turnId, messageId: input.messageId, paragraph: checked.paragraph, ord, cue: { ...checked } };
	});
	await tx.insert(stageCues).values(rows);
	return rows.length;
}

/** The cues of each message, in play order (by paragraph, then as given). Messages without cues are absent. */
export async function forMessages(exec: SessionExec, messageIds: readonly number[]): Promise<Map<number, StageCue[]>> {
	const out = new Map<number, StageCue[]>();
	if (messageIds.length === 0) return out;
	const rows = await exec
		.select()
		.from(stageCues)
		.where(inArray(stageCues.messageId, [...messageIds]))
		.orderBy(asc(stageCues.messageId), asc(stageCues.paragraph), asc(stageCues.ord));
	for (const row of rows) {
		const list = out.get(row.messageId) ?? [];
		list.push(v.parse(StageCueSchema, row.cue));
		out.set(row.messageId, list);
	}
	return out;
}

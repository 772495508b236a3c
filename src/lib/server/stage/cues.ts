/**
 * ADV stage cues: enter, exit, move, expression and background changes tied to paragraphs of a GM
 * message. Collected during a turn, saved with the turn's GM message in its commit, and read back so
 * the screen (the play page and the backlog alike) can replay the stage each message had.
 *
 * The cue's shape is `StageCueSchema` in `$lib/adv`, shared with the browser. Stored JSON is outside
 * data on the way out: every read goes through `toRows`, which leaves out (and logs) a row that is
 * not a cue, so no reader plays a cue another one drops.
 */
import { asc, inArray, lt, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { MAX_TAG_EXPRESSION_CHARS, StageCueSchema, type MessageCue, type StageCue } from '../../adv';

const { stageCues } = sessionSchema;

/** An expression is a short word (smile, angry, 驚き), the key of a sprite variant: the `adv_stage` tool's bound. */
export const MAX_EXPRESSION_CHARS = MAX_TAG_EXPRESSION_CHARS;
/** A reply longer than this many paragraphs is not a reply: the `adv_stage` tool's bound on cue indexes. */
export const MAX_PARAGRAPH = 500;

export interface SaveCuesInput {
	readonly turnId: string;
	/** The play-log message (the GM's reply) the cues belong to. */
	readonly messageId: number;
	readonly cues: readonly StageCue[];
}

/** Saves a message's cues in the order the GM gave them; call in the turn's commit. */
export async function save(tx: SessionTx, input: SaveCuesInput): Promise<number> {
	for (const query of saveQueries(tx, input)) await query;
	return input.cues.length;
}

/** `save`'s insert, unrun (none for no cues): for a batch. */
export function saveQueries(db: Pick<SessionDrizzle, 'insert'>, input: SaveCuesInput) {
	if (input.cues.length === 0) return [];
	const rows = input.cues.map((cue, ord) => {
		const checked = v.parse(StageCueSchema, cue);
		return { turnId: input.turnId, messageId: input.messageId, paragraph: checked.paragraph, ord, cue: { ...checked } };
	});
	return [db.insert(stageCues).values(rows)];
}

export function toRows(rows: readonly { messageId: number; paragraph: number; ord: number; cue: unknown }[]): MessageCue[] {
	const out: MessageCue[] = [];
	for (const row of rows) {
		const cue = v.safeParse(StageCueSchema, row.cue);
		if (cue.success) out.push({ messageId: row.messageId, paragraph: row.paragraph, ord: row.ord, cue: cue.output });
		else console.warn(`[kantera] a stored stage cue of message ${row.messageId} is not a cue (${cue.issues[0].message}); it is left out`);
	}
	return out;
}

function selectQuery(exec: SessionExec, where: SQL | undefined) {
	return exec
		.select({ messageId: stageCues.messageId, paragraph: stageCues.paragraph, ord: stageCues.ord, cue: stageCues.cue })
		.from(stageCues)
		.where(where)
		.orderBy(asc(stageCues.messageId), asc(stageCues.paragraph), asc(stageCues.ord));
}

async function select(exec: SessionExec, where: SQL | undefined): Promise<MessageCue[]> {
	return toRows(await selectQuery(exec, where));
}

/** The cue rows of these messages, in play order (message, paragraph, then as given). */
export async function forMessages(exec: SessionExec, messageIds: readonly number[]): Promise<MessageCue[]> {
	if (messageIds.length === 0) return [];
	return select(exec, inArray(stageCues.messageId, [...messageIds]));
}

/** The cue rows of the messages before `messageId` (all of them when undefined), in play order. */
export async function before(exec: SessionExec, messageId: number | undefined): Promise<MessageCue[]> {
	return toRows(await beforeQuery(exec, messageId));
}

/** `before`'s query, unrun: for a read batch (`toRows` reads its rows). */
export function beforeQuery(exec: SessionExec, messageId: number | undefined) {
	return selectQuery(exec, messageId === undefined ? undefined : lt(stageCues.messageId, messageId));
}

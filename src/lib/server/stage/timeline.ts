/**
 * The stage as it stands before a message: the world's opening scene, then
 * every cue of the earlier messages, folded by the same rules and in the same order as the browser's
 * `StageTimeline`. The play page and the backlog both start from this one state.
 */
import * as v from 'valibot';
import { meta, type SessionDrizzle, type SessionExec, type SessionTx } from '../db';
import { EMPTY_STAGE, STAGE_SLOTS, StageTimeline, type MessageCue, type StageState } from '../../adv';
import * as cues from './cues';

const OpeningSchema = v.object({ scene: v.nullable(v.string()), present: v.array(v.string()) });
export type Opening = v.InferOutput<typeof OpeningSchema>;

export async function setOpening(tx: SessionTx, opening: Opening): Promise<void> {
	await setOpeningQuery(tx, opening);
}

/** `setOpening`'s upsert, unrun: for a batch. */
export function setOpeningQuery(db: Pick<SessionDrizzle, 'insert'>, opening: Opening) {
	return meta.putJsonQuery(db, 'stage.opening', { scene: opening.scene, present: opening.present.slice(0, STAGE_SLOTS.length) });
}

/** The opening's row, unrun: for a read batch (`openingOf` reads it). */
export function openingQuery(exec: SessionExec) {
	return meta.valueQuery(exec, 'stage.opening');
}

export async function openingStage(exec: SessionExec): Promise<StageState> {
	return openingOf(await openingQuery(exec));
}

export function openingOf(rows: readonly { value: string }[]): StageState {
	const opening = meta.jsonOf(rows, OpeningSchema);
	if (!opening) return EMPTY_STAGE;
	// Only the place: the characters present are brought on by the GM's first reply (the GM notes
	// say who is there), so their entrances play as cues like every other.
	const { scene } = opening;
	return { ...EMPTY_STAGE, background: scene ? { scene } : null };
}

/** The stage as message `messageId` begins; with no message, after every cue so far. */
export async function stageBefore(exec: SessionExec, messageId: number | undefined): Promise<StageState> {
	const initial = await openingStage(exec);
	return stageAt(initial, await cues.before(exec, messageId), messageId);
}

/** The stage as message `messageId` begins (after every cue with none), from the opening and the cues before it. */
export function stageAt(initial: StageState, before: readonly MessageCue[], messageId: number | undefined): StageState {
	return new StageTimeline([], before, { initial }).before(messageId ?? Number.MAX_SAFE_INTEGER);
}

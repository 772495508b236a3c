/**
 * Who is on the stage (issue 27: characters know what they witnessed): the stage the player last saw,
 * with the cues the GM staged this turn played on it. What is said or written down while they stand
 * there is theirs to know.
 */
import { STAGE_SLOTS, applyCues, playOrder, type StageCue, type StageState } from '../../adv';
import type { SessionExec } from '../db';
import { stageBefore } from './timeline';

/** The characters standing on `stage` once the `staged` cues have played. */
export function presentAfter(stage: StageState, staged: readonly StageCue[]): string[] {
	const { state } = applyCues(stage, playOrder(staged));
	return STAGE_SLOTS.flatMap((slot) => {
		const figure = state.slots[slot];
		return figure ? [figure.character] : [];
	});
}

/** Who is on stage now, in a turn that has staged `staged` so far. */
export async function presentNow(exec: SessionExec, staged: readonly StageCue[]): Promise<string[]> {
	return presentAfter(await stageBefore(exec, undefined), staged);
}

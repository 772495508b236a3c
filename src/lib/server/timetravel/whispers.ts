/**
 * Time travel and whispers (issue 25): a whisper's answer is its whisperer's and the GM's alone, and a reroll or a
 * swipe would list it, or send the line again, where the owner (who does them) and the stream could read it. So a
 * whispered turn is only undone, never rerolled or swiped (its list of alternatives is empty); its line can be whispered again.
 */
import type { SessionExec } from '../db';
import { whispersAmong } from '../turn';
import { TimeTravelError } from './errors';

export async function isWhisper(exec: SessionExec, turnId: string): Promise<boolean> {
	return (await whispersAmong(exec, [turnId])).size > 0;
}

export async function refuseWhisper(exec: SessionExec, turnId: string): Promise<void> {
	if (await isWhisper(exec, turnId))
		throw new TimeTravelError('whisper', "A whisper's answer cannot be rerolled or swiped; undo it and whisper again.");
}

/** What the backlog tells the page when the player picks a line. */
import type { StageState } from '../../adv';
import type { StageImagesDto } from '../../types/log';
import type { BacklogEntry } from './entries';

export interface BacklogSelection {
	messageId: number;
	/** The paragraph index as the stage cues count it (0 for a player line). */
	paragraph: number;
	/** The stage while that paragraph was shown: background, the three slots, and the speaker. */
	stage: StageState;
	/** The row itself (speaker, text, kind), e.g. to show it in the text window. */
	entry: BacklogEntry;
	/** Registered characters and places with their image URLs as of the last backlog page. */
	images: StageImagesDto;
}

/**
 * The play screen's client state: rune classes shared by context (`PlayState` and its parts), the
 * event stream, the browser's one reader of the play log (`fetchLogPage`, also the backlog's), and
 * the shapes the server hands the page.
 */
export { PlayState } from './play.svelte';
export { setPlayContext, getPlayContext, playContext } from './context';

export { type ImageEntry, type SpriteImage } from './images.svelte';
export {
	TEXT_SPEED_NAMES,
	WINDOW_OPACITIES,
	TEXT_SIZES,
	MOTION_CHOICES,
	AUTO_DELAY_MIN_MS,
	AUTO_DELAY_MAX_MS,
	AUTO_DELAY_STEP_MS,
	isTextSpeed,
	isTextSize,
	isMotionChoice
} from './settings.svelte';
export { connectEvents } from './stream';
export { fetchLogPage } from './log';
export { newIdempotencyKey } from './keys';
export type * from './types';
export { readTurnFormError, describeTurnFormError } from './form-errors';

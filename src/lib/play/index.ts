/**
 * The play screen's client state: rune classes shared by context (`PlayState` and its parts), the
 * event stream, the browser's one reader of the play log (`fetchLogPage`, also the backlog's), and
 * the shapes the server hands the page.
 */
export {
	PlayState,
	setPlayContext,
	getPlayContext,
	type Translate,
	type TurnInFlight,
	type TurnOutcome,
	type Connection,
	type PlayOptions,
	type PastView,
	type TurnsLeft
} from './play.svelte';
export {
	Story,
	lastExchange,
	MAX_READ_KEYS,
	type Line,
	type LineKind,
	type Exchange,
	type ExchangeOutcome,
	type FrameScheduler,
	type ReadStorage
} from './story.svelte';
export { StageImages, type ImageEntry, type SpriteImage } from './images.svelte';
export {
	ReaderSettings,
	TEXT_SPEEDS,
	TEXT_SPEED_NAMES,
	WINDOW_OPACITIES,
	DEFAULT_WINDOW_OPACITY,
	TEXT_SIZES,
	MOTION_CHOICES,
	AUTO_DELAY_MIN_MS,
	AUTO_DELAY_MAX_MS,
	AUTO_DELAY_STEP_MS,
	isTextSpeed,
	isTextSize,
	isWindowOpacity,
	isMotionChoice,
	readStoredSettings,
	type TextSpeed,
	type TextSize,
	type WindowOpacity,
	type MotionChoice,
	type SettingsStorage
} from './settings.svelte';
export { connectEvents } from './stream';
export { fetchLogPage } from './log';
export { newIdempotencyKey } from './keys';
export type * from './types';
export { readTurnFormError, describeTurnFormError } from './form-errors';

/**
 * The play screen's reads: what the page loads and what a committed turn added. Routes call these;
 * the turn engine and the records stay unaware of the screen.
 */
export {
	loadPlayView,
	loadLogAfter,
	PLAY_MESSAGE_WINDOW,
	LOG_AFTER_LIMIT,
	type PlayView,
	type PlayMessage,
	type PlayCue,
	type StageImage,
	type ImageStatus,
	type ActiveTurn,
	type FinishedTurn,
	type LogAfter
} from './view';

/**
 * What the server hands the play screen (page data and the "log after" read), shared by the server
 * reads (`$lib/server/play`) and the browser state. Plain JSON shapes.
 */
import type { StageCue, StageState } from '../adv';
import type { TurnFailure, TurnStatus } from '../types/events';

export type PlayRole = 'player' | 'gm';

export interface PlayMessage {
	id: number;
	role: PlayRole;
	body: string;
	turnId: string | null;
}

export interface PlayCue {
	messageId: number;
	paragraph: number;
	ord: number;
	cue: StageCue;
}

export type ImageStatus = 'pending' | 'ready' | 'failed';

export interface StageImage {
	name: string;
	/** The generated image, once there is one; until then the screen draws a placeholder. */
	url: string | null;
	status: ImageStatus;
}

export interface ActiveTurn {
	id: string;
	input: string;
	status: 'accepted' | 'running';
	/** The reply streamed up to `lastEventId`. */
	text: string;
	cancelRequested: boolean;
}

export type FinishedStatus = Exclude<TurnStatus, 'accepted' | 'running'>;

export interface FinishedTurn {
	id: string;
	input: string;
	status: FinishedStatus;
	/** Set for a failed turn: its class and error id, never the provider's words. */
	failure: TurnFailure | null;
	stopped: string | null;
}

export interface PlayView {
	messages: PlayMessage[];
	cues: PlayCue[];
	/** The stage as the first of `messages` begins: every earlier cue played. */
	initialStage: StageState;
	npcs: StageImage[];
	scenes: StageImage[];
	activeTurn: ActiveTurn | null;
	/** The newest player turn, when it has finished: how it ended decides retry and notices. */
	lastTurn: FinishedTurn | null;
	/** Open the event stream after this id: everything before it is in this view. */
	lastEventId: number;
}

export interface LogAfter {
	messages: PlayMessage[];
	cues: PlayCue[];
	npcs: StageImage[];
	scenes: StageImage[];
}

/** Why the server did not accept a turn from the input box; the page words it in the reader's language. */
export type TurnFormError =
	| { code: 'empty' }
	| { code: 'tooLong'; length: number; max: number }
	| { code: 'conflict' }
	| { code: 'quota'; resetsAt: string }
	| { code: 'notConfigured' }
	| { code: 'invalid'; message: string };

/**
 * What the server hands the play page on load (`$lib/server/play`'s `loadPlayView`), shared by the
 * server read and the browser state. It travels as SvelteKit page data, typed end to end; the play
 * log inside it is the same `LogPageDto` the browser later fetches and checks (`./log.ts`).
 */
import * as v from 'valibot';
import type { LogPageDto } from '../types/log';
import type { StagedPlace, TurnFailure, TurnStatus } from '../types/events';
import type { StageCue } from '../adv';
import type { PresetAudioKind } from '../types/presets';

export interface ActiveTurn {
	id: string;
	input: string;
	status: 'accepted' | 'running';
	/** The reply streamed up to `lastEventId`. */
	text: string;
	/** The stage directions staged up to `lastEventId` (provisional until the turn commits). */
	staged: { cues: StageCue[]; places: StagedPlace[] };
	cancelRequested: boolean;
	/** A whisper (issue 25): who whispered, as which character; someone else's comes with no input or text. */
	whisper?: { by: string; as: string };
}

/** Play together: a line sent while the GM wrote, waiting for the next turn to answer it (its sender may cancel it). */
export interface QueuedLine {
	id: string;
	/** The line, tagged with its sender's character. */
	input: string;
	/** The user id of the member who sent it. */
	sender: string;
}

export type FinishedStatus = Exclude<TurnStatus, 'accepted' | 'running' | 'merged'>;

export interface FinishedTurn {
	id: string;
	input: string;
	status: FinishedStatus;
	/** Set for a failed turn: its class and error id, never the provider's words. */
	failure: TurnFailure | null;
	stopped: string | null;
	/** A whisper: someone else's comes with an empty input. */
	whisper?: { by: string; as: string };
}

export interface PlayView {
	/** The latest page of the play log: its messages, their cues, the stage as it begins, the images. */
	log: LogPageDto;
	activeTurn: ActiveTurn | null;
	/** The newest player turn, when it has finished: how it ended decides retry and notices. */
	lastTurn: FinishedTurn | null;
	/** Play together, free turn order: lines waiting behind the active turn, in order. */
	queued: QueuedLine[];
	/** Open the event stream after this id: everything before it is in this view. */
	lastEventId: number;
	/** What the GM offered the player to say next with the newest GM message, if anything. */
	choices: ChoiceMenu | null;
	/** The world's title card (a session started from a world); null for an empty world. */
	titleCard: TitleCard | null;
	/** The author's sound the session copied from its preset (none for a world without). */
	sounds?: PlaySound[];
}

/** One of the session's sound files: a music track, an ambience loop or an effect, by the name cues and places use. */
export interface PlaySound {
	kind: PresetAudioKind;
	name: string;
	url: string;
}

/** What the title card shows: the world's title and tagline over its opening scene. */
export interface TitleCard {
	title: string;
	tagline: string;
	/** The opening scene, whose background is the card's cover. */
	scene: string | null;
}

/** A menu of choices tied to the GM message that offered it. */
export interface ChoiceMenu {
	messageId: number;
	options: string[];
}

/**
 * Why the server did not accept a turn from the input box (`fail(…, { turn: { text, error } })`);
 * the page words it in the reader's language. An enhanced form hands it back as untyped data, so the
 * browser reads it with this schema.
 */
export const TurnFormErrorSchema = v.variant('code', [
	v.object({ code: v.literal('empty') }),
	v.object({ code: v.literal('tooLong'), length: v.number(), max: v.number() }),
	v.object({ code: v.literal('conflict') }),
	/** Play together, `round` mode: another seat's turn. */
	v.object({ code: v.literal('notYourTurn'), currentSeat: v.number() }),
	v.object({ code: v.literal('quota'), resetsAt: v.string() }),
	v.object({ code: v.literal('notConfigured') }),
	v.object({ code: v.literal('controlCharacter') }),
	/** The server failed (an error page instead of an answer): said plainly, never its English message. */
	v.object({ code: v.literal('server') }),
	v.object({ code: v.literal('invalid'), message: v.string() })
]);
export type TurnFormError = v.InferOutput<typeof TurnFormErrorSchema>;

/** A daily turn quota as the player sees it. */
export interface TurnsLeft {
	left: number;
	limit: number;
}

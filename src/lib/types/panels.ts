/**
 * JSON shapes of the play screen's backlog and side-panel endpoints (`/api/v1/sessions/{id}/backlog`,
 * `PUT …/documents/{docId}`). Browser-safe: the backlog component reads them, the routes write them.
 */
import type { StageCue, StageState } from '../adv';
import type { DocumentDto, MessageDto } from './api';

/** One stored stage cue with its place in play order (message, paragraph, order within the message). */
export interface BacklogCueDto {
	messageId: number;
	paragraph: number;
	ord: number;
	cue: StageCue;
}

/** A registered character or place and its generated image, when there is one yet. */
export interface StageImageDto {
	name: string;
	/** Same-origin URL of the image (owner-checked); null while only the placeholder exists. */
	url: string | null;
}

export interface StageImagesDto {
	characters: StageImageDto[];
	scenes: StageImageDto[];
}

/**
 * A page of the play log with what the stage needs to replay it: the cues of these messages and
 * the stage as the page's first message begins (every earlier cue played), so a client that has
 * only this page and the later ones can still show any of their paragraphs as it was.
 */
export interface BacklogPageDto {
	/** Oldest first. */
	messages: MessageDto[];
	/** The cues of these messages, in play order. */
	cues: BacklogCueDto[];
	/** The stage before the first message of this page; the empty stage for an empty page. */
	stageBefore: StageState;
	/** Pass as `?before=` for the previous page; absent when this page reaches the start. */
	nextBefore?: number;
	images: StageImagesDto;
}

/** `PUT …/documents/{docId}`: the player's edit of a player-visible document. */
export interface DocumentEditDto {
	title?: string;
	body: string;
}

export type { DocumentDto };

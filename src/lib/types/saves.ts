/** Save slots as the API and the play screen see them. */
import * as v from 'valibot';
import { STAGE_SLOTS } from '../adv';
import { StageImageSchema } from './log';

/** A place or a character as the thumbnail draws it: the stage image's name and URL (null: a placeholder). */
const Picture = v.pick(StageImageSchema, ['name', 'url']);

/** The stage when the save was made: what the slot's thumbnail draws. */
export const SaveThumbnailSchema = v.object({
	background: v.nullable(Picture),
	sprites: v.array(v.object({ slot: v.picklist(STAGE_SLOTS), ...Picture.entries }))
});
export type SaveThumbnail = v.InferOutput<typeof SaveThumbnailSchema>;

export const SaveSchema = v.object({
	id: v.string(),
	name: v.string(),
	/** The quick-save slot (one per session, replaced by each quick save). */
	quick: v.boolean(),
	/** Player turns played up to the save. */
	turnNumber: v.number(),
	/** The last line of the play log at the save as the player saw it (`Speaker: text`, no tag markup), cut to a preview. */
	lastLine: v.string(),
	thumbnail: SaveThumbnailSchema,
	/** The line the player was reading when saving (the screen's `turn:paragraph`), or null: a load opens there. */
	at: v.nullable(v.string()),
	createdAt: v.string()
});
export type SaveDto = v.InferOutput<typeof SaveSchema>;

export const SaveListSchema = v.object({ saves: v.array(SaveSchema) });
export type SaveListDto = v.InferOutput<typeof SaveListSchema>;

/** `POST …/saves/{saveId}/load`: the new session the save continues in. */
export const LoadedSaveSchema = v.object({
	sessionId: v.string(),
	title: v.string(),
	/** The line the save was made on (see SaveSchema's `at`): the new session's screen opens there. */
	at: v.nullable(v.string())
});
export type LoadedSaveDto = v.InferOutput<typeof LoadedSaveSchema>;

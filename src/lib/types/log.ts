/**
 * The play log as it leaves the server, one schema per shape: a page of messages with the stage
 * needed to replay it (`LogPage`, what the play page opens on, what a commit adds and what the
 * backlog pages through), the plain message page of `GET …/messages`, and the registered characters'
 * and places' images. The server's read model (`$lib/server/play`) builds them; the browser checks
 * every answer with them (`$lib/play/log.ts`).
 */
import * as v from 'valibot';
import { LOG_ROLES, MessageCueSchema, PLACE_KINDS, StageStateSchema } from '../adv';

const Id = v.pipe(v.number(), v.integer());

/** The turn id of the prologue a session from a world opens with (a GM message no LLM wrote). */
export const PROLOGUE_TURN_ID = 'prologue';

/** The most messages one page carries: a screenful many times over, and small enough to answer at once. */
export const LOG_MAX_PAGE = 200;

export const MessageSchema = v.object({
	id: Id,
	role: v.picklist(LOG_ROLES),
	speaker: v.nullable(v.string()),
	body: v.string(),
	turnId: v.nullable(v.string()),
	createdAt: v.string(),
	/**
	 * A whispered line (issue 25): member `by` whispered it to the GM as character `as`. To everyone but `by` its
	 * body is empty and the GM's answer is left out.
	 */
	whisper: v.optional(v.object({ by: v.string(), as: v.string() }))
});
export type MessageDto = v.InferOutput<typeof MessageSchema>;

/** Pass as `?before=` for the previous page; absent when a page reaches the start of the log. */
const NextBefore = v.optional(Id);

/** `GET …/messages`: oldest first. */
export const MessagesPageSchema = v.object({ messages: v.array(MessageSchema), nextBefore: NextBefore });
export type MessagesPageDto = v.InferOutput<typeof MessagesPageSchema>;

export const IMAGE_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ImageStatus = (typeof IMAGE_STATUSES)[number];

/** Where stage images are served: an answer pointing anywhere else is drawn as a placeholder. */
const IMAGE_ROUTE_PREFIX = '/api/v1/sessions/';

export const StageImageSchema = v.object({
	name: v.string(),
	/** The generated image (same origin, owner-checked) once there is one; until then a placeholder is drawn. */
	url: v.pipe(
		v.nullable(v.string()),
		v.transform((url) => (url !== null && url.startsWith(IMAGE_ROUTE_PREFIX) ? url : null))
	),
	/** `pending` while a (new) image is still coming, `failed` when the last job gave up without one. */
	status: v.picklist(IMAGE_STATUSES),
	/** A character's sprite in one expression (absent: the default sprite). */
	expression: v.optional(v.string()),
	/** A place's kind, for the drawn backdrop until its image is ready. */
	kind: v.optional(v.picklist(PLACE_KINDS))
});
export type StageImageDto = v.InferOutput<typeof StageImageSchema>;

/** Every registered character (sprite) and place (background). Also `GET …/images`. */
export const StageImagesSchema = v.object({ characters: v.array(StageImageSchema), scenes: v.array(StageImageSchema) });
export type StageImagesDto = v.InferOutput<typeof StageImagesSchema>;

/**
 * A page of the play log with what the stage needs to replay it: the cues of these messages and
 * the stage as the page's first message begins (every earlier cue played), so a client that has
 * only this page and the later ones can still show any of their paragraphs as it was.
 */
export const LogPageSchema = v.object({
	/** Oldest first. */
	messages: v.array(MessageSchema),
	/** The cues of these messages, in play order. */
	cues: v.array(MessageCueSchema),
	/** The stage before the first message of this page (after every cue so far for an empty page). */
	stageBefore: StageStateSchema,
	nextBefore: NextBefore,
	images: StageImagesSchema
});
export type LogPageDto = v.InferOutput<typeof LogPageSchema>;

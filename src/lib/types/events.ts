/**
 * The whole stream protocol between server and browser: one valibot variant on `type`, shared by the
 * event log (which checks every row it reads back with it), the SSE endpoint and the client (which
 * checks every `data:` line with it). Add a member here and both sides see it, typed and checked.
 */
import * as v from 'valibot';
import { PLACE_KINDS, StageCueSchema } from '../adv';

/** `merged`: a line queued while the GM wrote (free turn order at a shared table), answered by a later turn with the lines before it. */
export const TURN_STATUSES = ['accepted', 'running', 'committed', 'failed', 'interrupted', 'cancelled', 'merged'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

export const BUDGET_SCOPES = ['turn', 'session', 'user_day', 'global_month'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

/**
 * Why a turn failed, by class. Players get fixed, localised words for each, never the provider's own
 * message (which may quote the GM-only prompt back); the details are in the server log under the
 * failure's error id.
 */
export const FAILURE_CLASSES = [
	'rate_limited',
	'provider_unavailable',
	'timed_out',
	'refused',
	'protocol_error',
	'misconfigured',
	// The GM's reply kept giving away an unrevealed secret or something the world does not have (issue 27).
	'withheld',
	'internal'
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** How a failed turn is shown: its class and the id the operator finds the details under. */
export const TurnFailureSchema = v.object({ reason: v.picklist(FAILURE_CLASSES), errorId: v.string() });
export type TurnFailure = v.InferOutput<typeof TurnFailureSchema>;

/** What an image is for: a character's sprite or a place's background. */
export const IMAGE_TARGETS = ['npc', 'scene'] as const;
export type ImageTarget = (typeof IMAGE_TARGETS)[number];

const Id = v.pipe(v.number(), v.integer());
const ImageTargetSchema = v.picklist(IMAGE_TARGETS);

/** A place the GM registered during a turn (`set_scene`): its name and the kind of backdrop it gets. */
export const StagedPlaceSchema = v.object({ name: v.string(), kind: v.picklist(PLACE_KINDS) });
export type StagedPlace = v.InferOutput<typeof StagedPlaceSchema>;

export const SessionEventSchema = v.variant('type', [
	/**
	 * `whisper`: the line was whispered to the GM by member `by` as character `as` (issue 25). Streams of the other
	 * members get it with an empty `input`, and nothing else of that turn but its start and end (`whisperView`).
	 * `sender`: at a shared table, the user id of the member who sent the line (a line accepted while another
	 * turn runs waits, queued, until a turn takes it: `turn.merged`; its sender may cancel it until then).
	 */
	v.object({
		type: v.literal('turn.accepted'),
		turnId: v.string(),
		input: v.string(),
		sender: v.optional(v.string()),
		whisper: v.optional(v.object({ by: v.string(), as: v.string() }))
	}),
	v.object({ type: v.literal('turn.started'), turnId: v.string() }),
	/** A piece of the GM's reply as it streams. Discard a turn's deltas if it ends failed or cancelled. */
	v.object({ type: v.literal('text.delta'), turnId: v.string(), text: v.string() }),
	/**
	 * The GM reconsiders (issue 27): the reply it was writing gave away a secret not yet revealed or named
	 * something this world does not have, before any of that was sent. What streamed of the turn is now
	 * `text` (what earlier parts of the reply showed, often nothing); the rewrite streams after it as deltas.
	 */
	v.object({ type: v.literal('text.withdrawn'), turnId: v.string(), text: v.string() }),
	/**
	 * Stage directions the GM staged for the reply it is writing (`adv_stage` cues, places set with
	 * `set_scene`), sent as they are staged so the stage plays them live at their paragraph. They are
	 * provisional like the deltas: discard them if the turn ends failed or cancelled; on commit the
	 * message's cues (the same ones) come with the play log.
	 */
	v.object({ type: v.literal('stage.staged'), turnId: v.string(), cues: v.array(StageCueSchema), places: v.array(StagedPlaceSchema) }),
	/** The GM used a tool. Only the name of a player-visible tool; never arguments. */
	v.object({ type: v.literal('tool.activity'), turnId: v.string(), tool: v.string() }),
	v.object({ type: v.literal('checkpoint.started'), turnId: v.string() }),
	v.object({ type: v.literal('checkpoint.done'), turnId: v.string(), summaryId: Id }),
	/** `choices`: what the GM offers the player to say next (a menu; free text stays possible). */
	v.object({
		type: v.literal('turn.committed'),
		turnId: v.string(),
		reply: v.string(),
		messageIds: v.array(Id),
		stopped: v.optional(v.string()),
		choices: v.optional(v.array(v.string()))
	}),
	v.object({
		type: v.literal('turn.failed'),
		turnId: v.string(),
		reason: v.picklist(FAILURE_CLASSES),
		errorId: v.string(),
		retryable: v.boolean()
	}),
	v.object({ type: v.literal('turn.cancelled'), turnId: v.string() }),
	v.object({ type: v.literal('turn.interrupted'), turnId: v.string() }),
	/**
	 * Play together: the queued line `turnId` is answered by the turn `into` (which just started), together with
	 * the lines before it; `input` is everything that turn answers, in order, each line tagged with its character.
	 */
	v.object({ type: v.literal('turn.merged'), turnId: v.string(), into: v.string(), input: v.string() }),
	/**
	 * An undo (or a reroll or edit) took the player's turn `turnId` back, with the checkpoints and
	 * hand-offs after it (`undone`, newest first): every record is as it was before it. Screens reload
	 * the session; `input` is the line the player sent, for an edit box.
	 */
	v.object({ type: v.literal('turn.undone'), turnId: v.string(), undone: v.array(v.string()), input: v.string() }),
	/**
	 * The player chose another reply to the last line (a swipe): the turn `turnId` gave it, and every
	 * record is now as that reply left it. Screens reload the session.
	 */
	v.object({ type: v.literal('turn.swiped'), turnId: v.string() }),
	/**
	 * A spending limit's warning threshold was crossed. `message` is English (logs, API clients); the
	 * amounts let a screen word it in its reader's language: micro-dollars or LLM calls, by `unit`
	 * (absent in events stored by older builds).
	 */
	v.object({
		type: v.literal('budget.warning'),
		scope: v.picklist(BUDGET_SCOPES),
		message: v.string(),
		unit: v.optional(v.picklist(['micros', 'calls'])),
		spent: v.optional(v.number()),
		warnAt: v.optional(v.number()),
		limit: v.optional(v.number())
	}),
	/** An image job finished: the stage swaps the placeholder of that character or place for `url`. */
	v.object({ type: v.literal('image.ready'), orderId: Id, target: ImageTargetSchema, name: v.string(), url: v.string() }),
	/** An image job gave up after its retries; the placeholder (or the previous image) stays. */
	v.object({ type: v.literal('image.failed'), orderId: Id, target: ImageTargetSchema, name: v.string(), error: v.string() }),
	/** Play together: someone joined or left, the turn order changed or a round turn moved on; read `…/members` again. */
	v.object({ type: v.literal('table.changed') })
]);

export type SessionEvent = v.InferOutput<typeof SessionEventSchema>;
export type SessionEventType = SessionEvent['type'];

/** Every event type the stream sends (the SSE `event:` names), in the order declared above. */
export const SESSION_EVENT_TYPES: readonly SessionEventType[] = SessionEventSchema.options.map((o) => o.entries.type.literal);

/** The event in a JSON text (a log row, an SSE `data:` line), or null when it is not a well-formed event. */
export function parseSessionEvent(json: string): SessionEvent | null {
	let data: unknown;
	try {
		data = JSON.parse(json);
	} catch {
		return null;
	}
	const parsed = v.safeParse(SessionEventSchema, data);
	return parsed.success ? parsed.output : null;
}

/** An event as stored in the log and sent over SSE: the log id is the SSE `id:`. */
export interface LoggedEvent {
	id: number;
	event: SessionEvent;
}

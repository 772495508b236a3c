/**
 * The JSON shapes of REST API v1 (`/api/v1`), one valibot schema each: the server builds the
 * inferred types, the browser checks answers with the schemas. Times are ISO 8601 strings. Errors are
 * always `ApiErrorBody`. The play log's shapes (messages, backlog pages, stage images) are in `./log`.
 */
import * as v from 'valibot';
import { TURN_STATUSES, TurnFailureSchema } from './events';
import { LanguageSchema, ProviderNameSchema } from './settings';
import { ContentIssueSchema } from './content-issues';
import { TierSchema } from './account';
import { MEMBER_ROLES } from './members';

const Id = v.pipe(v.number(), v.integer());

/**
 * What is wrong with one field of a refused request, for a client to word in its reader's language
 * (the `message` beside it stays English for API clients). A newer server may send a problem this
 * build does not know: read it as `invalid`.
 */
export const FIELD_PROBLEMS = [
	'required',
	'type',
	'unexpected',
	'empty',
	'tooShort',
	'tooLong',
	'controlCharacter',
	'format',
	'tooSmall',
	'tooLarge',
	'invalid'
] as const;
export type FieldProblemCode = (typeof FIELD_PROBLEMS)[number];

export const FieldProblemSchema = v.object({
	/** Dot path of the field (`name`, `text`, `npcs.0.name`); empty for the body as a whole. */
	path: v.string(),
	problem: v.string(),
	/** The bound broken: characters for tooShort/tooLong, the value for tooSmall/tooLarge. */
	limit: v.optional(v.number())
});
export type FieldProblem = v.InferOutput<typeof FieldProblemSchema> & { problem: FieldProblemCode };

export const ApiErrorBodySchema = v.object({
	message: v.string(),
	/** Stable, upper snake case: what a client branches on. */
	code: v.string(),
	/** INVALID_BODY, INVALID_QUERY, INVALID_INPUT: each field refused and why (at most a few). */
	fields: v.optional(v.array(FieldProblemSchema)),
	/** SAVE_SLOTS_FULL: how many slots a session has. */
	limit: v.optional(v.number()),
	/** BUDGET_EXCEEDED: the spending limit reached (`turn`, `session`, `user_day`, `global_month`). */
	scope: v.optional(v.string()),
	/** LLM_NOT_CONFIGURED: what the operator must set. */
	hint: v.optional(v.string()),
	/** QUOTA_EXCEEDED: when the daily quota refills; PUBLISH_RATE_LIMITED: when the next publication is allowed. */
	resetsAt: v.optional(v.string()),
	/** INVALID_PRESET: every problem of the preset, on its field (see ./presets). */
	issues: v.optional(v.array(ContentIssueSchema)),
	/** NOT_YOUR_TURN: the seat whose turn it is (play together, `round` mode). */
	currentSeat: v.optional(v.number()),
	/** TOO_EARLY_TO_SKIP: from when the owner may skip the seat whose turn it is (ISO time). */
	skippableAt: v.optional(v.string())
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;

/** Whether turns can be played at all on this server: say plainly when no LLM is configured. */
export const LlmStatusSchema = v.variant('configured', [
	v.object({ configured: v.literal(true), provider: ProviderNameSchema, model: v.string() }),
	v.object({ configured: v.literal(false), hint: v.string() })
]);
export type LlmStatusDto = v.InferOutput<typeof LlmStatusSchema>;

export const StatusSchema = v.object({ llm: LlmStatusSchema });
export type StatusDto = v.InferOutput<typeof StatusSchema>;

export const SessionSummarySchema = v.object({
	id: v.string(),
	title: v.string(),
	language: LanguageSchema,
	createdAt: v.string(),
	updatedAt: v.string()
});
export type SessionSummaryDto = v.InferOutput<typeof SessionSummarySchema>;

/** The signed-in player's tier and what it allows; `turnsLeft` is what the screen always shows. */
export const PlanSchema = v.object({
	tier: TierSchema,
	/** False on the free tier: the model is `fixedModel` and switching is refused. */
	modelChoice: v.boolean(),
	fixedModel: v.optional(v.object({ provider: ProviderNameSchema, model: v.string() })),
	/** Hand-made image regeneration (within KANTERA_IMAGE_REGENERATIONS_PER_DAY). */
	regeneration: v.boolean(),
	/** Null: no daily turn quota. */
	turnsLimit: v.nullable(v.number()),
	turnsUsed: v.number(),
	turnsLeft: v.nullable(v.number()),
	turnsResetAt: v.string()
});
export type PlanDto = v.InferOutput<typeof PlanSchema>;

/** GET /api/v1/sessions/{id}/spend: what this session cost, turn by turn, and what is left. */
export const SpendSchema = v.object({
	/** The most recent turns (checkpoints and hand-offs included: they cost too), oldest first. */
	turns: v.array(
		v.object({
			/** 1-based position among the session's metered turns. */
			n: v.number(),
			kind: v.picklist(['player', 'checkpoint', 'handoff']),
			at: v.string(),
			calls: v.number(),
			/** All input tokens, the cached ones included. */
			inputTokens: v.number(),
			cachedInputTokens: v.number(),
			outputTokens: v.number(),
			costMicros: v.number()
		})
	),
	totals: v.object({
		turns: v.number(),
		inputTokens: v.number(),
		cachedInputTokens: v.number(),
		outputTokens: v.number(),
		costMicros: v.number(),
		/** cached / input over the whole session; null before any call. */
		cacheHitRate: v.nullable(v.number())
	}),
	/**
	 * What the canon guard did in this session (issue 27): replies and tool calls it withdrew before the player
	 * saw them and had written again, and turns it stopped.
	 */
	canon: v.object({ rewrites: v.number(), stopped: v.number() }),
	/** Every scope with a limit: money left in micro-dollars (the turn scope: its per-turn limit). */
	budgets: v.array(
		v.object({ scope: v.picklist(['turn', 'session', 'user_day', 'global_month']), limitMicros: v.number(), leftMicros: v.number() })
	),
	plan: PlanSchema
});
export type SpendDto = v.InferOutput<typeof SpendSchema>;

export const SessionSchema = v.object({
	...SessionSummarySchema.entries,
	/** The LLM this session's turns use; absent while the server has none configured. */
	provider: v.optional(ProviderNameSchema),
	model: v.optional(v.string()),
	/** The newest event id: pass it as `?lastEventId=` to the events stream to miss nothing after this read. */
	lastEventId: Id,
	llm: LlmStatusSchema,
	/** The requesting player's tier: model choice, regeneration, turns left today. */
	plan: PlanSchema,
	/**
	 * Set when a PATCH changed the provider/model of a session with history: the current model first
	 * writes a hand-off summary in this turn, and `provider`/`model` change when it commits.
	 */
	handoffTurnId: v.optional(v.string()),
	/** Play together: the requesting user's place, `owner` or `player` (GET of one session). */
	role: v.optional(v.picklist(MEMBER_ROLES))
});
export type SessionDto = v.InferOutput<typeof SessionSchema>;

/** A turn's status as the API tells it: `undone` once an undo, reroll or edit took it back. */
export const TurnStatusSchema = v.picklist([...TURN_STATUSES, 'undone']);

export const AcceptedTurnSchema = v.object({ turnId: v.string(), status: TurnStatusSchema });
export type AcceptedTurnDto = v.InferOutput<typeof AcceptedTurnSchema>;

/** `POST …/turns/{turnId}/undo`: what the undo took back. */
export const UndoneSchema = v.object({
	/** The player turn taken back. */
	turnId: v.string(),
	/** The line the player had sent in it. */
	input: v.string(),
	/** Every turn taken back, newest first (checkpoints and hand-offs after it, then it). */
	undone: v.array(v.string())
});
export type UndoneDto = v.InferOutput<typeof UndoneSchema>;

/** `POST …/turns/{turnId}/reroll`: the new turn, and what was taken back for it (absent on a resend). */
export const RerolledSchema = v.object({ turnId: v.string(), status: TurnStatusSchema, undone: v.optional(UndoneSchema) });
export type RerolledDto = v.InferOutput<typeof RerolledSchema>;

/** One reply to a line (a swipe): the turn that gave it, its text, and whether it is the one on screen. */
export const AlternativeSchema = v.object({ id: v.string(), text: v.string(), current: v.boolean() });
/** `GET …/turns/{turnId}/alternatives` and `POST …/alternatives/{altId}/choose`: the line's replies, oldest first. */
export const AlternativesSchema = v.object({ items: v.array(AlternativeSchema) });
export type AlternativesDto = v.InferOutput<typeof AlternativesSchema>;

export const TurnSchema = v.object({
	turnId: v.string(),
	status: TurnStatusSchema,
	input: v.string(),
	/** Present once the turn is committed. */
	reply: v.optional(v.object({ text: v.string() })),
	/** Why a failed, interrupted or cancelled turn ended, in fixed words (for a failure: its class's, with the error id). */
	error: v.optional(v.string()),
	/** A failed turn's class and error id: branch on `reason`; quote `errorId` to the operator, who finds the details in the server log. */
	failure: v.optional(TurnFailureSchema),
	/** Why a committed turn ended early (`round_cap`, `budget:<scope>`). */
	stopped: v.optional(v.string()),
	/** A cancel was asked for and the runner has not stopped yet. */
	cancelRequested: v.boolean(),
	/** A queued line (status `merged`): the turn that answers it, together with the lines before it. */
	mergedInto: v.optional(v.string()),
	createdAt: v.string(),
	finishedAt: v.optional(v.string()),
	/** A whisper (issue 25): who whispered, as which character. To every other member `input` and the reply are empty. */
	whisper: v.optional(v.object({ by: v.string(), as: v.string() }))
});
export type TurnDto = v.InferOutput<typeof TurnSchema>;

export const JournalEntrySchema = v.object({ id: Id, body: v.string(), createdAt: v.string() });
export type JournalEntryDto = v.InferOutput<typeof JournalEntrySchema>;

/** `GET …/journal` (no `nextBefore`) and `GET …/journal/recent`. */
export const JournalPageSchema = v.object({
	entries: v.array(JournalEntrySchema),
	/** Pass as `?before=` for the previous page; absent when this page reaches the start. */
	nextBefore: v.optional(Id)
});
export type JournalPageDto = v.InferOutput<typeof JournalPageSchema>;

export const StateSchema = v.object({ state: v.record(v.string(), v.unknown()), version: v.number() });
export type StateDto = v.InferOutput<typeof StateSchema>;

export const DocumentInfoSchema = v.object({
	id: Id,
	title: v.string(),
	createdAt: v.string(),
	updatedAt: v.string(),
	/** Another author's world: the player sees this document's name only (its body is for the GM). */
	sealed: v.optional(v.literal(true))
});
export type DocumentInfoDto = v.InferOutput<typeof DocumentInfoSchema>;

export const DocumentListSchema = v.object({ documents: v.array(DocumentInfoSchema) });

export const DocumentSchema = v.object({ ...DocumentInfoSchema.entries, body: v.string() });
export type DocumentDto = v.InferOutput<typeof DocumentSchema>;

/** `POST …/images/regenerate`: the order placed; the image arrives as an `image.ready` event. */
export const ImageOrderSchema = v.object({ orderId: Id, status: v.string() });
export type ImageOrderDto = v.InferOutput<typeof ImageOrderSchema>;

/**
 * The player-visible records the play page renders into its drawers on the server (so they read
 * without JavaScript): the state, the latest journal page, the documents, and the one asked for.
 */
export interface RecordsView {
	state: StateDto;
	journal: JournalPageDto;
	documents: DocumentInfoDto[];
	/** The document asked for (`?doc=`), when it exists and is player-visible. */
	document: DocumentDto | null;
}

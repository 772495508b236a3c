/** Response shapes, checked with valibot: a test that reads a field first proves the field is there. */
import * as v from 'valibot';

export const ErrorBody = v.object({
	message: v.string(),
	code: v.string(),
	hint: v.optional(v.string()),
	resetsAt: v.optional(v.string())
});

const Llm = v.union([
	v.object({ configured: v.literal(true), provider: v.picklist(['openai', 'anthropic']), model: v.string() }),
	v.object({ configured: v.literal(false), hint: v.string() })
]);

export const Status = v.object({ llm: Llm });

export const SessionSummary = v.object({
	id: v.string(),
	title: v.string(),
	language: v.picklist(['ja', 'en']),
	createdAt: v.string(),
	updatedAt: v.string()
});

export const Session = v.object({
	...SessionSummary.entries,
	provider: v.optional(v.picklist(['openai', 'anthropic', 'google'])),
	model: v.optional(v.string()),
	lastEventId: v.number(),
	llm: Llm,
	plan: v.object({
		tier: v.picklist(['free', 'plus']),
		modelChoice: v.boolean(),
		fixedModel: v.optional(v.object({ provider: v.string(), model: v.string() })),
		regeneration: v.boolean(),
		turnsLimit: v.nullable(v.number()),
		turnsUsed: v.number(),
		turnsLeft: v.nullable(v.number()),
		turnsResetAt: v.string()
	})
});

export const SessionList = v.object({ sessions: v.array(SessionSummary) });

const TurnStatus = v.picklist(['accepted', 'running', 'committed', 'failed', 'interrupted', 'cancelled', 'merged']);

export const AcceptedTurn = v.strictObject({ turnId: v.string(), status: TurnStatus });

export const Turn = v.object({
	turnId: v.string(),
	status: TurnStatus,
	input: v.string(),
	reply: v.optional(v.object({ text: v.string() })),
	error: v.optional(v.string()),
	failure: v.optional(v.strictObject({ reason: v.string(), errorId: v.string() })),
	stopped: v.optional(v.string()),
	cancelRequested: v.boolean(),
	mergedInto: v.optional(v.string()),
	createdAt: v.string(),
	finishedAt: v.optional(v.string())
});

export const Message = v.object({
	id: v.number(),
	role: v.picklist(['player', 'gm', 'operator', 'system']),
	speaker: v.nullable(v.string()),
	body: v.string(),
	turnId: v.nullable(v.string()),
	createdAt: v.string()
});

export const MessagesPage = v.object({ messages: v.array(Message), nextBefore: v.optional(v.number()) });

export const DocumentInfo = v.object({ id: v.number(), title: v.string(), createdAt: v.string(), updatedAt: v.string() });
export const DocumentList = v.object({ documents: v.array(DocumentInfo) });
export const Document = v.object({ ...DocumentInfo.entries, body: v.string() });

export const Journal = v.object({ entries: v.array(v.object({ id: v.number(), body: v.string(), createdAt: v.string() })) });

export const State = v.object({ state: v.record(v.string(), v.unknown()), version: v.number() });

/** Parses a response's JSON body with a shape. */
export async function bodyOf<S extends v.GenericSchema>(res: Response, schema: S): Promise<v.InferOutput<S>> {
	const data: unknown = await res.json();
	return v.parse(schema, data);
}

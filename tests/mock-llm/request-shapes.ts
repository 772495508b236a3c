/**
 * The request bodies the mock accepts, checked the way the real APIs check them, so an adapter that sends a
 * malformed conversation fails here as it would against the vendor (a 400 with the reason).
 */
import * as v from 'valibot';

const OpenAiToolCall = v.looseObject({
	id: v.string(),
	type: v.literal('function'),
	function: v.looseObject({ name: v.string(), arguments: v.string() })
});

const OpenAiMessage = v.variant('role', [
	v.looseObject({ role: v.picklist(['system', 'developer']), content: v.string() }),
	v.looseObject({ role: v.literal('user'), content: v.string() }),
	v.looseObject({
		role: v.literal('assistant'),
		content: v.optional(v.nullable(v.string())),
		tool_calls: v.optional(v.array(OpenAiToolCall))
	}),
	v.looseObject({ role: v.literal('tool'), tool_call_id: v.string(), content: v.string() })
]);

export const OpenAiBodySchema = v.looseObject({
	model: v.pipe(v.string(), v.minLength(1)),
	messages: v.pipe(v.array(OpenAiMessage), v.minLength(1)),
	stream: v.optional(v.nullable(v.boolean())),
	stream_options: v.optional(v.nullable(v.looseObject({ include_usage: v.optional(v.boolean()) }))),
	tools: v.optional(
		v.array(
			v.looseObject({
				type: v.literal('function'),
				function: v.looseObject({
					name: v.string(),
					description: v.optional(v.string()),
					parameters: v.optional(v.record(v.string(), v.unknown()))
				})
			})
		)
	),
	max_tokens: v.optional(v.number()),
	max_completion_tokens: v.optional(v.number()),
	temperature: v.optional(v.number())
});
export type OpenAiBody = v.InferOutput<typeof OpenAiBodySchema>;

const NonEmptyText = v.pipe(v.string(), v.minLength(1, 'text content blocks must be non-empty'));
const CacheControl = v.optional(v.nullable(v.looseObject({ type: v.literal('ephemeral') })));

const AnthropicBlock = v.variant('type', [
	v.looseObject({ type: v.literal('text'), text: NonEmptyText, cache_control: CacheControl }),
	v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.record(v.string(), v.unknown()) }),
	v.looseObject({
		type: v.literal('tool_result'),
		tool_use_id: v.string(),
		content: v.optional(v.string()),
		is_error: v.optional(v.boolean())
	})
]);
export type AnthropicBlock = v.InferOutput<typeof AnthropicBlock>;

export const AnthropicBodySchema = v.looseObject({
	model: v.pipe(v.string(), v.minLength(1)),
	max_tokens: v.pipe(v.number(), v.integer(), v.minValue(1)),
	messages: v.pipe(
		v.array(v.looseObject({ role: v.picklist(['user', 'assistant']), content: v.union([NonEmptyText, v.array(AnthropicBlock)]) })),
		v.minLength(1)
	),
	system: v.optional(
		v.union([v.string(), v.array(v.looseObject({ type: v.literal('text'), text: NonEmptyText, cache_control: CacheControl }))])
	),
	tools: v.optional(
		v.array(
			v.looseObject({ name: v.string(), description: v.optional(v.string()), input_schema: v.looseObject({ type: v.literal('object') }) })
		)
	),
	stream: v.optional(v.boolean()),
	temperature: v.optional(v.number())
});
export type AnthropicBody = v.InferOutput<typeof AnthropicBodySchema>;

export type Checked<T> = { ok: true; body: T } | { ok: false; message: string };

export function issuesText(issues: v.BaseIssue<unknown>[]): string {
	return issues.map((issue) => `${issue.path?.map((p) => String(p.key)).join('.') ?? '(body)'}: ${issue.message}`).join('; ');
}

export function checkOpenAiBody(raw: unknown): Checked<OpenAiBody> {
	const parsed = v.safeParse(OpenAiBodySchema, raw);
	if (!parsed.success) return { ok: false, message: issuesText(parsed.issues) };
	const body = parsed.output;
	// Every tool call must be answered by tool messages right after its assistant message, and only then.
	let open = new Set<string>();
	for (const [i, message] of body.messages.entries()) {
		if (message.role === 'tool') {
			if (!open.delete(message.tool_call_id))
				return { ok: false, message: `messages.${i}: tool message for unknown or already answered tool_call_id ${message.tool_call_id}` };
			continue;
		}
		if (open.size > 0)
			return {
				ok: false,
				message: `messages.${i}: an assistant message with 'tool_calls' must be followed by \
tool messages responding to each 'tool_call_id' (missing: ${[...open].join(', ')})`
			};
		if (message.role === 'assistant') {
			if (!message.tool_calls?.length && !message.content)
				return { ok: false, message: `messages.${i}: assistant message needs content or tool_calls` };
			open = new Set(message.tool_calls?.map((call) => call.id) ?? []);
		}
	}
	return { ok: true, body };
}

export function checkAnthropicBody(raw: unknown): Checked<AnthropicBody> {
	const parsed = v.safeParse(AnthropicBodySchema, raw);
	if (!parsed.success) return { ok: false, message: issuesText(parsed.issues) };
	const body = parsed.output;
	const seenToolUseIds = new Set<string>();
	const expectedResults = new Set<string>();
	for (const [i, message] of body.messages.entries()) {
		const expectedRole = i % 2 === 0 ? 'user' : 'assistant';
		if (message.role !== expectedRole) return { ok: false, message: `messages.${i}: roles must alternate, starting with user` };
		const blocks = typeof message.content === 'string' ? [] : message.content;
		if (message.role === 'user') {
			let sawOther = false;
			for (const block of blocks) {
				if (block.type === 'tool_result') {
					if (sawOther) return { ok: false, message: `messages.${i}: tool_result blocks must come first in the user message` };
					if (!expectedResults.delete(block.tool_use_id))
						return { ok: false, message: `messages.${i}: unexpected tool_use_id ${block.tool_use_id} in tool_result blocks` };
				} else {
					sawOther = true;
					if (block.type === 'tool_use') return { ok: false, message: `messages.${i}: tool_use blocks belong to assistant messages` };
				}
			}
			if (expectedResults.size > 0)
				return {
					ok: false,
					message: `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${[...expectedResults].join(', ')}`
				};
		} else {
			if (expectedResults.size > 0) return { ok: false, message: `messages.${i}: tool results missing` };
			for (const block of blocks) {
				if (block.type === 'tool_result') return { ok: false, message: `messages.${i}: tool_result blocks belong to user messages` };
				if (block.type === 'tool_use') {
					if (seenToolUseIds.has(block.id)) return { ok: false, message: `messages.${i}: tool_use ids must be unique (${block.id})` };
					seenToolUseIds.add(block.id);
					expectedResults.add(block.id);
				}
			}
		}
	}
	return { ok: true, body };
}

/** The system prompt of a request as plain text, whichever wire and form it came in. */
export function systemTextOf(request: { openai: OpenAiBody | undefined; anthropic: AnthropicBody | undefined }): string | undefined {
	if (request.openai) {
		const first = request.openai.messages[0];
		return first && (first.role === 'system' || first.role === 'developer') ? first.content : undefined;
	}
	const system = request.anthropic?.system;
	if (system === undefined) return undefined;
	return typeof system === 'string' ? system : system.map((block) => block.text).join('');
}

/** What the model is answering: the player's last words, or the results of the tools it called. */
export type LastTurn =
	{ kind: 'user'; text: string } | { kind: 'tool'; results: { id: string; content: string; isError: boolean }[] } | { kind: 'none' };

export function lastTurnOfOpenAi(body: OpenAiBody): LastTurn {
	const results: { id: string; content: string; isError: boolean }[] = [];
	for (let i = body.messages.length - 1; i >= 0; i--) {
		const message = body.messages[i];
		if (message?.role === 'tool') results.unshift({ id: message.tool_call_id, content: message.content, isError: false });
		else if (results.length > 0) return { kind: 'tool', results };
		else if (message?.role === 'user') return { kind: 'user', text: message.content };
		else return { kind: 'none' };
	}
	return results.length > 0 ? { kind: 'tool', results } : { kind: 'none' };
}

export function lastTurnOfAnthropic(body: AnthropicBody): LastTurn {
	const last = body.messages.at(-1);
	if (!last || last.role !== 'user') return { kind: 'none' };
	if (typeof last.content === 'string') return { kind: 'user', text: last.content };
	const results = last.content.flatMap((block) =>
		block.type === 'tool_result' ? [{ id: block.tool_use_id, content: block.content ?? '', isError: block.is_error ?? false }] : []
	);
	if (results.length > 0) return { kind: 'tool', results };
	return { kind: 'user', text: last.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n') };
}

/**
 * Runs one tool call from the model. Nothing here throws to the caller: unknown tools, arguments
 * that are not JSON, arguments that fail the schema and handler exceptions all become a tool result
 * marked as an error, worded so the model can read it and correct its next call.
 */
import * as v from 'valibot';
import type { Tool, ToolOutput } from './define';

export interface ToolCall {
	id: string;
	name: string;
	/** Raw argument text as the model produced it. */
	arguments: string;
}

export interface ToolResult {
	callId: string;
	name: string;
	isError: boolean;
	/** What the model reads. */
	content: string;
	/** The handler ran (false for unknown tools and invalid arguments). */
	ran: boolean;
}

/** Errors a handler throws on purpose, with a message meant for the model. */
export class ToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ToolError';
	}
}

/** Cap on what one tool result may put back into the context. */
const MAX_TOOL_RESULT_CHARS = 12_000;

/**
 * Forgiving JSON argument parser: models sometimes wrap arguments in code fences or send nothing
 * for a tool without parameters. Anything else that is not JSON is reported, not guessed at.
 */
export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
	let text = raw.trim();
	if (text === '') return { ok: true, value: {} };
	const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text);
	if (fenced?.[1] !== undefined) text = fenced[1];
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (err) {
		return {
			ok: false,
			message: `arguments are not valid JSON (${err instanceof Error ? err.message : 'parse error'}). Send one JSON object matching the tool's schema.`
		};
	}
}

function formatIssues(issues: readonly v.BaseIssue<unknown>[]): string {
	return issues
		.slice(0, 8)
		.map((issue) => {
			const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
			return `- ${path || '(arguments)'}: ${issue.message}`;
		})
		.join('\n');
}

function render(output: ToolOutput): string {
	const text = typeof output === 'string' ? output : JSON.stringify(output);
	return text.length > MAX_TOOL_RESULT_CHARS
		? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n…(truncated; ask for less, e.g. a narrower query or a section)`
		: text;
}

export async function runToolCall<TCtx>(tools: ReadonlyMap<string, Tool<TCtx>>, call: ToolCall, ctx: TCtx): Promise<ToolResult> {
	const base = { callId: call.id, name: call.name };
	const tool = tools.get(call.name);
	if (!tool) {
		return {
			...base,
			isError: true,
			ran: false,
			content: `unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(', ')}.`
		};
	}
	const parsed = parseArguments(call.arguments);
	if (!parsed.ok) return { ...base, isError: true, ran: false, content: `${call.name}: ${parsed.message}` };
	const checked = tool.parse(parsed.value);
	if (!checked.success) {
		return {
			...base,
			isError: true,
			ran: false,
			content: `${call.name}: invalid arguments, nothing was done:\n${formatIssues(checked.issues)}\nFix the arguments and call again.`
		};
	}
	try {
		return { ...base, isError: false, ran: true, content: render(await tool.run(checked.output, ctx)) };
	} catch (err) {
		if (err instanceof ToolError) return { ...base, isError: true, ran: true, content: `${call.name}: ${err.message}` };
		// Unexpected failures: the model gets a short reason, never a stack trace or internals.
		const message = err instanceof Error && err.name !== 'Error' ? `${err.name}: ${err.message}` : 'internal error';
		return { ...base, isError: true, ran: true, content: `${call.name} failed: ${message}. Nothing from this call was saved.` };
	}
}

export function toolMap<TCtx>(tools: readonly Tool<TCtx>[]): ReadonlyMap<string, Tool<TCtx>> {
	const map = new Map<string, Tool<TCtx>>();
	for (const t of tools) {
		if (map.has(t.name)) throw new Error(`duplicate tool ${t.name}`);
		map.set(t.name, t);
	}
	return map;
}

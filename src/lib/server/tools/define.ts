/**
 * Tools are contracts (seed 001): each tool is ONE valibot schema that yields its TypeScript type,
 * its runtime validation and the JSON Schema sent to every provider. Prose rules in the prompt are
 * no substitute: the model decides when to use a tool, the schema decides what a valid call is.
 *
 * The JSON Schema travels with every LLM call, so it carries only what helps the model write a call:
 * types, enums, what is required, and descriptions where a field's name does not say it. Length,
 * count and range bounds stay in the valibot schema (a call that breaks one gets a readable tool error and is
 * retried) and are left out of what is sent: the model almost never meets them, and they cost tokens
 * on every call.
 */
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';

export type ArgsSchema = v.GenericSchema<unknown, unknown>;

export interface ToolDefinition<TSchema extends ArgsSchema, TCtx> {
	name: string;
	description: string;
	schema: TSchema;
	handler: (args: v.InferOutput<TSchema>, ctx: TCtx) => Promise<ToolOutput> | ToolOutput;
}

/** What a handler returns: text (or JSON-able data) the model reads. */
export type ToolOutput = string | { [key: string]: unknown } | unknown[];

export interface Tool<TCtx> {
	readonly name: string;
	readonly description: string;
	/** JSON Schema (draft-07 object) for the provider's tool list: the wire form, without the bounds (see above). */
	readonly parameters: Record<string, unknown>;
	/** The whole contract: what `parse` checks. */
	readonly schema: ArgsSchema;
	parse(args: unknown): v.SafeParseResult<ArgsSchema>;
	run(args: unknown, ctx: TCtx): Promise<ToolOutput>;
}

/** Tool names are part of the product contract and of every vendor's grammar: keep them plain. */
const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Valibot actions whose JSON Schema keywords (string lengths, item and key counts, number ranges) are not sent; validation keeps them. */
const UNSENT_ACTIONS = ['min_length', 'max_length', 'min_entries', 'max_entries', 'min_value', 'max_value'];

/** The JSON Schema of a tool's arguments as providers get it. */
function wireSchema(schema: ArgsSchema): Record<string, unknown> {
	const json = toJsonSchema(schema, { errorMode: 'throw', typeMode: 'input', ignoreActions: UNSENT_ACTIONS });
	// Providers want a bare object schema; the $schema marker is noise to them, and so is an empty `required`.
	const { $schema: _schema, required, ...rest } = json as Record<string, unknown>;
	return Array.isArray(required) && required.length > 0 ? { ...rest, required } : rest;
}

export function defineTool<TSchema extends ArgsSchema, TCtx>(def: ToolDefinition<TSchema, TCtx>): Tool<TCtx> {
	if (!TOOL_NAME.test(def.name)) throw new Error(`invalid tool name: ${def.name}`);
	const parameters = wireSchema(def.schema);
	if (parameters.type !== 'object') throw new Error(`tool ${def.name}: arguments must be an object schema`);
	return {
		name: def.name,
		description: def.description,
		parameters,
		schema: def.schema,
		parse: (args) => v.safeParse(def.schema, args),
		async run(args, ctx) {
			return def.handler(v.parse(def.schema, args), ctx);
		}
	};
}

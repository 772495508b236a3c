/**
 * Tools are contracts (seed 001): each tool is ONE valibot schema that yields its TypeScript type,
 * its runtime validation and the JSON Schema sent to every provider. Prose rules in the prompt are
 * no substitute: the model decides when to use a tool, the schema decides what a valid call is.
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
	/** JSON Schema (draft-07 object) for the provider's tool list. */
	readonly parameters: Record<string, unknown>;
	parse(args: unknown): v.SafeParseResult<ArgsSchema>;
	run(args: unknown, ctx: TCtx): Promise<ToolOutput>;
}

/** Tool names are part of the product contract and of every vendor's grammar: keep them plain. */
const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function defineTool<TSchema extends ArgsSchema, TCtx>(def: ToolDefinition<TSchema, TCtx>): Tool<TCtx> {
	if (!TOOL_NAME.test(def.name)) throw new Error(`invalid tool name: ${def.name}`);
	const json = toJsonSchema(def.schema, { errorMode: 'throw', typeMode: 'input' });
	// Providers want a bare object schema; the $schema marker is noise to them.
	const { $schema: _ignored, ...parameters } = json as Record<string, unknown>;
	if (parameters.type !== 'object') throw new Error(`tool ${def.name}: arguments must be an object schema`);
	return {
		name: def.name,
		description: def.description,
		parameters,
		parse: (args) => v.safeParse(def.schema, args),
		async run(args, ctx) {
			return def.handler(v.parse(def.schema, args), ctx);
		}
	};
}

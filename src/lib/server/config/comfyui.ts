/**
 * The ComfyUI settings: the operator's workflow file (ComfyUI's API format, "Export (API)"), read and checked at
 * start-up, and where in it Kantera writes the prompt, the negative prompt, the size and the seed. Every mistake
 * (a missing file, the UI format instead of the API format, a node or an input that isn't there, an input that is
 * wired to another node) stops the server with a message naming the variable, not the first image.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { HttpUrl, NonEmpty } from './env-values';

/** `6` (a node id) or `6.text` (a node id and one of its inputs). */
const NodePath = v.pipe(
	v.string(),
	v.trim(),
	v.regex(/^[^.\s]+(\.[A-Za-z0-9_]+)?$/, 'must be a node id, or a node id and an input: 6 or 6.text')
);
const NodeId = v.pipe(v.string(), v.trim(), v.regex(/^[^.\s]+$/, 'must be a node id, e.g. 5'));

/** Spread into the environment schema of config/index.ts. */
export const COMFYUI_ENV_ENTRIES = {
	/** The ComfyUI server, e.g. http://127.0.0.1:8188. */
	KANTERA_COMFYUI_URL: v.optional(HttpUrl),
	/** The workflow file in ComfyUI's API format, for backgrounds (and sprites without a workflow of their own). */
	KANTERA_COMFYUI_WORKFLOW: v.optional(NonEmpty),
	/** A workflow for sprites, e.g. the same graph with a background-removal node, so sprites come with alpha. */
	KANTERA_COMFYUI_SPRITE_WORKFLOW: v.optional(NonEmpty),
	KANTERA_COMFYUI_PROMPT_NODE: v.optional(NodePath),
	KANTERA_COMFYUI_NEGATIVE_NODE: v.optional(NodePath),
	/** A node with `width` and `height` inputs (EmptyLatentImage and its kin). */
	KANTERA_COMFYUI_SIZE_NODE: v.optional(NodeId),
	KANTERA_COMFYUI_SEED_NODE: v.optional(NodePath),
	/** The node whose images are taken; unset: the first output node that has one. */
	KANTERA_COMFYUI_OUTPUT_NODE: v.optional(NodeId)
};

type ComfyEnv = { [K in keyof typeof COMFYUI_ENV_ENTRIES]?: string };

/** A workflow file bigger than this is not a workflow. */
const MAX_WORKFLOW_BYTES = 1024 * 1024;

const WorkflowSchema = v.pipe(
	v.record(
		v.string(),
		v.looseObject({
			class_type: v.pipe(v.string('class_type must be text'), v.minLength(1, 'class_type must not be empty')),
			inputs: v.record(v.string(), v.unknown(), 'inputs must be an object')
		}),
		'must be an object of nodes'
	),
	v.check((graph) => Object.keys(graph).length > 0, 'has no nodes')
);

/** A workflow in ComfyUI's API format: node id → `{ class_type, inputs }`. */
export type ComfyWorkflow = v.InferOutput<typeof WorkflowSchema>;

/** One input of one node. */
export interface ComfyInput {
	readonly node: string;
	readonly input: string;
}

export interface ComfyUiSettings {
	baseUrl: string;
	workflows: { sprite: ComfyWorkflow; background: ComfyWorkflow };
	inputs: {
		prompt: ComfyInput;
		negative: ComfyInput | undefined;
		size: { width: ComfyInput; height: ComfyInput } | undefined;
		seed: ComfyInput | undefined;
	};
	outputNode: string | undefined;
}

/** `{ graph }` or `{ error }`: a graph is a record of node ids, and a node may well be called `error`. */
function readWorkflow(variable: string, file: string): { graph: ComfyWorkflow } | { error: string } {
	let raw: unknown;
	try {
		const text = readFileSync(file, 'utf8');
		if (text.length > MAX_WORKFLOW_BYTES) return { error: `${variable}: ${file} is larger than ${MAX_WORKFLOW_BYTES} bytes` };
		raw = JSON.parse(text);
	} catch (err) {
		return { error: `${variable}: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` };
	}
	// What "Save" writes (the editor's graph) is not what the API runs; say which export is wanted.
	if (typeof raw === 'object' && raw !== null && 'nodes' in raw && 'links' in raw)
		return { error: `${variable}: ${file} is a workflow in ComfyUI's UI format; export it with "Export (API)" instead` };
	const parsed = v.safeParse(WorkflowSchema, raw);
	if (!parsed.success) {
		const issue = parsed.issues[0];
		const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
		return { error: `${variable}: ${file}: ${where ? `node ${where}: ` : ''}${issue.message}` };
	}
	return { graph: parsed.output };
}

/** A link to another node's output is `[nodeId, outputIndex]`: writing over it would cut the graph. */
const isLink = (value: unknown) => Array.isArray(value) && value.length === 2 && typeof value[0] === 'string';

/**
 * Where `path` points in every workflow: its node must exist and the input must be a value of its own.
 * `defaults` are the input names tried, in order, when the path names only a node.
 */
function resolveInput(
	variable: string,
	path: string,
	defaults: readonly string[],
	workflows: readonly { variable: string; graph: ComfyWorkflow }[]
): ComfyInput | { error: string } {
	const [node = '', named] = path.split('.');
	let input = named;
	for (const { variable: fileVariable, graph } of workflows) {
		const found = graph[node];
		if (!found) return { error: `${variable}: the workflow of ${fileVariable} has no node "${node}"` };
		input ??= defaults.find((name) => name in found.inputs);
		if (input === undefined || !(input in found.inputs)) {
			const wanted = input === undefined ? defaults.map((d) => `"${d}"`).join(' or ') : `"${input}"`;
			return { error: `${variable}: node "${node}" (${found.class_type}) in the workflow of ${fileVariable} has no input ${wanted}` };
		}
		if (isLink(found.inputs[input]))
			return {
				error: `${variable}: input "${input}" of node "${node}" in the workflow of ${fileVariable} is wired to another node, not a value`
			};
	}
	return { node, input: input ?? '' };
}

export function comfyUiSettings(e: ComfyEnv): ComfyUiSettings | { error: string } {
	if (e.KANTERA_COMFYUI_URL === undefined) return { error: 'KANTERA_COMFYUI_URL: required when KANTERA_IMAGES=comfyui' };
	if (e.KANTERA_COMFYUI_WORKFLOW === undefined)
		return { error: "KANTERA_COMFYUI_WORKFLOW: required when KANTERA_IMAGES=comfyui (a workflow file in ComfyUI's API format)" };
	if (e.KANTERA_COMFYUI_PROMPT_NODE === undefined)
		return {
			error: 'KANTERA_COMFYUI_PROMPT_NODE: required when KANTERA_IMAGES=comfyui (the node that takes the prompt, e.g. 6 or 6.text)'
		};
	const background = readWorkflow('KANTERA_COMFYUI_WORKFLOW', e.KANTERA_COMFYUI_WORKFLOW);
	if ('error' in background) return background;
	const backgroundGraph = background.graph;
	let spriteGraph = backgroundGraph;
	const files = [{ variable: 'KANTERA_COMFYUI_WORKFLOW', graph: backgroundGraph }];
	if (e.KANTERA_COMFYUI_SPRITE_WORKFLOW !== undefined) {
		const sprite = readWorkflow('KANTERA_COMFYUI_SPRITE_WORKFLOW', e.KANTERA_COMFYUI_SPRITE_WORKFLOW);
		if ('error' in sprite) return sprite;
		spriteGraph = sprite.graph;
		files.push({ variable: 'KANTERA_COMFYUI_SPRITE_WORKFLOW', graph: spriteGraph });
	}
	const prompt = resolveInput('KANTERA_COMFYUI_PROMPT_NODE', e.KANTERA_COMFYUI_PROMPT_NODE, ['text'], files);
	if ('error' in prompt) return prompt;
	let negative: ComfyInput | undefined;
	if (e.KANTERA_COMFYUI_NEGATIVE_NODE !== undefined) {
		const found = resolveInput('KANTERA_COMFYUI_NEGATIVE_NODE', e.KANTERA_COMFYUI_NEGATIVE_NODE, ['text'], files);
		if ('error' in found) return found;
		negative = found;
	}
	let size: ComfyUiSettings['inputs']['size'];
	if (e.KANTERA_COMFYUI_SIZE_NODE !== undefined) {
		const width = resolveInput('KANTERA_COMFYUI_SIZE_NODE', `${e.KANTERA_COMFYUI_SIZE_NODE}.width`, [], files);
		if ('error' in width) return width;
		const height = resolveInput('KANTERA_COMFYUI_SIZE_NODE', `${e.KANTERA_COMFYUI_SIZE_NODE}.height`, [], files);
		if ('error' in height) return height;
		size = { width, height };
	}
	let seed: ComfyInput | undefined;
	if (e.KANTERA_COMFYUI_SEED_NODE !== undefined) {
		// KSampler calls it seed, KSamplerAdvanced and RandomNoise noise_seed.
		const found = resolveInput('KANTERA_COMFYUI_SEED_NODE', e.KANTERA_COMFYUI_SEED_NODE, ['seed', 'noise_seed'], files);
		if ('error' in found) return found;
		seed = found;
	}
	const outputNode = e.KANTERA_COMFYUI_OUTPUT_NODE;
	if (outputNode !== undefined) {
		const missing = files.find(({ graph }) => !(outputNode in graph));
		if (missing) return { error: `KANTERA_COMFYUI_OUTPUT_NODE: the workflow of ${missing.variable} has no node "${outputNode}"` };
	}
	return {
		baseUrl: e.KANTERA_COMFYUI_URL.replace(/\/+$/, ''),
		workflows: { sprite: spriteGraph, background: backgroundGraph },
		inputs: { prompt, negative, size, seed },
		outputNode
	};
}

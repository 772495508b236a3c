/**
 * Images from a ComfyUI server, through its HTTP API: the operator's workflow (API format, checked at start-up by
 * config) is copied for each image, the prompt, negative prompt, size and seed written into the inputs config named,
 * and queued with `POST /prompt {prompt, client_id}` → `{prompt_id}`. `GET /history/{prompt_id}` is empty until the
 * prompt has run, then holds its outputs (`{images: [{filename, subfolder, type}]}` per output node) and its status;
 * the picture is fetched from `GET /view?filename=&subfolder=&type=`. Polling the history is all a server-side client
 * needs (the /ws socket only saves a second of latency). A PNG with alpha (a workflow that removes the background)
 * stays a PNG with alpha; its text chunks (ComfyUI writes the whole prompt and workflow there) are stripped by the
 * runner with everything generated.
 */
import { randomInt, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { ComfyInput, ComfyUiSettings, ComfyWorkflow, LocalGeneratorSettings } from '../config';
import { sleep } from '../retry';
import { ImageProviderError } from './errors';
import { sniffRaster, type GeneratedImage, type ImageProvider, type ImageRequest } from './provider';
import { readBounded, readJson, send, withDeadline } from './service-call';
import { UPLOAD_LIMITS } from './upload';

/** How often the history is asked while the prompt waits or runs. */
const POLL_MS = 1000;
/** A history entry holds the prompt (the whole workflow) and its outputs: a few hundred KB at most in practice. */
const MAX_JSON_BYTES = 8 * 1024 * 1024;
/** Taking a cancelled prompt off the queue is a courtesy; it never holds up the job. */
const CANCEL_TIMEOUT_MS = 5000;
/** Seeds stay below 2^47: exact in JSON numbers, far more than a sampler tells apart. */
const SEED_LIMIT = 2 ** 47;

const QueuedSchema = v.looseObject({ prompt_id: v.pipe(v.string(), v.minLength(1)) });

const ImageRefSchema = v.looseObject({
	filename: v.pipe(v.string(), v.minLength(1)),
	subfolder: v.optional(v.string(), ''),
	type: v.optional(v.string(), 'output')
});
type ImageRef = v.InferOutput<typeof ImageRefSchema>;

const HistorySchema = v.record(
	v.string(),
	v.looseObject({
		outputs: v.optional(v.record(v.string(), v.looseObject({ images: v.optional(v.array(ImageRefSchema)) })), {}),
		// Older servers write no status; newer ones say success or error and keep the run's messages.
		status: v.optional(
			v.nullable(
				v.looseObject({
					status_str: v.optional(v.string()),
					completed: v.optional(v.boolean()),
					messages: v.optional(v.array(v.unknown()), [])
				})
			)
		)
	})
);
type HistoryEntry = v.InferOutput<typeof HistorySchema>[string];

const ExecutionErrorSchema = v.tuple([
	v.literal('execution_error'),
	v.looseObject({ exception_message: v.optional(v.string(), ''), node_id: v.optional(v.unknown()), node_type: v.optional(v.string(), '') })
]);

export interface ComfyUiOptions extends ComfyUiSettings, LocalGeneratorSettings {
	/** Tests poll faster and pin the seed. */
	pollMs?: number;
	seed?: () => number;
}

export class ComfyUiImageProvider implements ImageProvider {
	readonly id = 'comfyui';
	/** Tells ComfyUI which websocket client queued a prompt; one per provider, as its own examples do. */
	private readonly clientId = randomUUID();

	constructor(private readonly options: ComfyUiOptions) {}

	/** The workflow to run for a request: a copy of the operator's with Kantera's inputs written in. */
	graph(request: Pick<ImageRequest, 'kind' | 'prompt'>): ComfyWorkflow {
		const { workflows, inputs, negativePrompt, sizes } = this.options;
		const graph = structuredClone(request.kind === 'sprite' ? workflows.sprite : workflows.background);
		const set = (at: ComfyInput, value: string | number) => {
			const node = graph[at.node];
			// config checked every named node and input at start-up; a missing one here is a bug, not a bad file.
			if (!node) throw new ImageProviderError(`ComfyUI workflow has no node "${at.node}"`, false);
			node.inputs[at.input] = value;
		};
		set(inputs.prompt, request.prompt);
		if (inputs.negative && negativePrompt !== undefined) set(inputs.negative, negativePrompt);
		if (inputs.size) {
			const size = request.kind === 'sprite' ? sizes.sprite : sizes.background;
			set(inputs.size.width, size.width);
			set(inputs.size.height, size.height);
		}
		// A new seed each time: the same graph twice is the same picture (ComfyUI even answers it from its cache).
		if (inputs.seed) set(inputs.seed, this.options.seed?.() ?? randomInt(SEED_LIMIT));
		return graph;
	}

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		const base = this.options.baseUrl;
		let promptId: string | undefined;
		try {
			return await withDeadline(`image request to ${base}`, request.signal, this.options.timeoutMs, async (signal) => {
				const what = `image request to ${base}/prompt`;
				const body = JSON.stringify({ prompt: this.graph(request), client_id: this.clientId });
				const queued = await send(
					`${base}/prompt`,
					{ method: 'POST', headers: { 'content-type': 'application/json' }, body, signal },
					what
				);
				promptId = (await readJson(queued, QueuedSchema, MAX_JSON_BYTES, what)).prompt_id;
				const ref = await this.waitForImage(promptId, signal);
				return await this.download(ref, signal);
			});
		} catch (err) {
			// Stopped or timed out while queued or drawing: take it off the queue rather than leave the GPU busy for nobody.
			if (promptId !== undefined && !(err instanceof ImageProviderError && !err.retryable)) this.cancel(promptId);
			throw err;
		}
	}

	private async waitForImage(promptId: string, signal: AbortSignal): Promise<ImageRef> {
		const base = this.options.baseUrl;
		const what = `image request to ${base}/history/${promptId}`;
		for (;;) {
			const history = await readJson(
				await send(`${base}/history/${encodeURIComponent(promptId)}`, { signal }, what),
				HistorySchema,
				MAX_JSON_BYTES,
				what
			);
			// Empty until the prompt has run, whether it waits in the queue or is being drawn.
			const entry = history[promptId];
			if (entry) return this.imageOf(entry);
			await sleep(this.options.pollMs ?? POLL_MS, signal);
		}
	}

	private imageOf(entry: HistoryEntry): ImageRef {
		const base = this.options.baseUrl;
		if (entry.status?.status_str === 'error') {
			const failure = entry.status.messages.map((m) => v.safeParse(ExecutionErrorSchema, m)).find((m) => m.success)?.output[1];
			const where = failure ? ` in node ${String(failure.node_id)} (${failure.node_type})` : '';
			// Often the GPU's memory, taken by something else for a while: worth another attempt.
			throw new ImageProviderError(
				`ComfyUI at ${base} failed to run the workflow${where}: ${failure?.exception_message ?? 'no message'}`,
				true
			);
		}
		const outputs = this.options.outputNode === undefined ? Object.values(entry.outputs) : [entry.outputs[this.options.outputNode]];
		const images = outputs.flatMap((o) => o?.images ?? []);
		// A saved image over a preview: previews are temporary files the server may already have dropped.
		const ref = images.find((i) => i.type === 'output') ?? images[0];
		if (!ref) {
			const node = this.options.outputNode === undefined ? 'any output node' : `output node "${this.options.outputNode}"`;
			throw new ImageProviderError(`ComfyUI at ${base} ran the workflow but ${node} made no image (is there a Save Image node?)`, false);
		}
		return ref;
	}

	private async download(ref: ImageRef, signal: AbortSignal): Promise<GeneratedImage> {
		const url = `${this.options.baseUrl}/view?${new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type }).toString()}`;
		const what = `image request to ${url}`;
		const bytes = await readBounded(await send(url, { signal }, what), UPLOAD_LIMITS.bytes, what);
		const contentType = sniffRaster(bytes);
		if (!contentType) throw new ImageProviderError(`image from ${url} is not a PNG, JPEG or WebP file`, false);
		return { bytes, contentType };
	}

	private cancel(promptId: string): void {
		const body = JSON.stringify({ delete: [promptId] });
		void fetch(`${this.options.baseUrl}/queue`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
			signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS)
		})
			.then((r) => r.body?.cancel())
			.catch(() => undefined);
	}
}

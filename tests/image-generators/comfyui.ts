/**
 * FAKE of a ComfyUI server, speaking the HTTP API of its server.py and execution.py:
 *   POST /prompt {prompt, client_id}  → 200 {prompt_id, number, node_errors: {}}; 400 {error: {type, message, details,
 *                                       extra_info}, node_errors} when the graph has no output node or a link to no node
 *   GET  /history/{prompt_id}         → {} while queued or running; then {[id]: {prompt, outputs: {[node]: {images:
 *                                       [{filename, subfolder, type}]}}, status: {status_str, completed, messages}, meta}}
 *   GET  /view?filename&subfolder&type → the file's bytes (400 on a path that climbs out, 404 when unknown)
 *   POST /queue {delete: [ids]}       → 200
 *   GET  /system_stats                → {system, devices}
 * "Running" a prompt makes a real PNG of the size the graph's latent node asks for (any node with numeric width and
 * height inputs), with alpha when the graph has a background-removal node, and with the `prompt` and `workflow` text
 * chunks SaveImage writes. SaveImage outputs are `type: "output"`, PreviewImage ones `type: "temp"`.
 */
import { randomUUID } from 'node:crypto';
import { listen, sendJson } from './http';
import { makePng } from './png';

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

/** What the next queued prompt does: `ok`, a status for the POST, a graph ComfyUI refuses, or how the run ends. */
export type ComfyStep =
	| 'ok'
	| { status: number }
	| 'invalid'
	/** Stays queued: the history never fills. */
	| 'hang'
	| 'execution_error'
	| 'no_images'
	/** The file /view serves is an HTML page. */
	| 'not_an_image';

export interface FakeComfyUi {
	url: string;
	/** Every POST /prompt body, in order. */
	prompts: { prompt: Graph; client_id?: string }[];
	/** `METHOD path`, in order. */
	calls: string[];
	/** Prompt ids taken off the queue with POST /queue. */
	deleted: string[];
	script(...steps: ComfyStep[]): void;
	close(): Promise<void>;
}

const OUTPUT_CLASSES = new Set(['SaveImage', 'PreviewImage']);
const isLink = (value: unknown): value is [string, number] => Array.isArray(value) && value.length === 2 && typeof value[0] === 'string';

interface Run {
	polls: number;
	entry: unknown;
}

/** `pollsBeforeDone`: how many GET /history answers are `{}` before the run is there (the queue and the drawing). */
export async function startFakeComfyUi(opts: { pollsBeforeDone?: number } = {}): Promise<FakeComfyUi> {
	const prompts: FakeComfyUi['prompts'] = [];
	const calls: string[] = [];
	const deleted: string[] = [];
	const steps: ComfyStep[] = [];
	const runs = new Map<string, Run>();
	const files = new Map<string, { bytes: Uint8Array; type: string }>();
	let counter = 0;

	const run = (id: string, graph: Graph, step: ComfyStep): unknown => {
		const now = Date.now();
		const started = ['execution_start', { prompt_id: id, timestamp: now }];
		if (step === 'execution_error')
			return {
				prompt: [counter, id, graph, {}, []],
				outputs: {},
				status: {
					status_str: 'error',
					completed: false,
					messages: [
						started,
						[
							'execution_error',
							{
								prompt_id: id,
								node_id: '3',
								node_type: 'KSampler',
								executed: [],
								exception_message: 'Allocation on device',
								exception_type: 'torch.OutOfMemoryError',
								traceback: [],
								current_inputs: {},
								current_outputs: {}
							}
						]
					]
				},
				meta: {}
			};
		const latent = Object.values(graph).find((n) => typeof n.inputs['width'] === 'number' && typeof n.inputs['height'] === 'number');
		const width = Number(latent?.inputs['width'] ?? 512);
		const height = Number(latent?.inputs['height'] ?? 512);
		const alpha = Object.values(graph).some((n) => /rembg|remove ?background/i.test(n.class_type));
		const outputs: Record<string, { images: { filename: string; subfolder: string; type: string }[] }> = {};
		if (step !== 'no_images')
			for (const [nodeId, node] of Object.entries(graph)) {
				if (!OUTPUT_CLASSES.has(node.class_type)) continue;
				counter++;
				const type = node.class_type === 'SaveImage' ? 'output' : 'temp';
				const filename = `ComfyUI_${String(counter).padStart(5, '0')}_.png`;
				const bytes =
					step === 'not_an_image'
						? new TextEncoder().encode('<html><body>not here</body></html>')
						: makePng({ width, height, alpha, text: { prompt: JSON.stringify(graph), workflow: '{"nodes":[]}' } });
				files.set(`${type}/${filename}`, { bytes, type });
				outputs[nodeId] = { images: [{ filename, subfolder: '', type }] };
			}
		return {
			prompt: [counter, id, graph, {}, Object.keys(outputs)],
			outputs,
			status: { status_str: 'success', completed: true, messages: [started, ['execution_success', { prompt_id: id, timestamp: now }]] },
			meta: {}
		};
	};

	const server = await listen((req, url, body, res) => {
		calls.push(`${req.method} ${url.pathname}`);
		if (req.method === 'POST' && url.pathname === '/prompt') {
			const step = steps.shift() ?? 'ok';
			if (typeof step === 'object')
				return sendJson(res, step.status, { error: { type: 'server', message: 'scripted', details: '', extra_info: {} } });
			const request = body as { prompt?: Graph; client_id?: string } | undefined;
			if (!request?.prompt)
				return sendJson(res, 400, {
					error: { type: 'no_prompt', message: 'No prompt provided', details: '', extra_info: {} },
					node_errors: {}
				});
			prompts.push({ prompt: request.prompt, client_id: request.client_id });
			const graph = request.prompt;
			if (!Object.values(graph).some((n) => OUTPUT_CLASSES.has(n.class_type)))
				return sendJson(res, 400, {
					error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} },
					node_errors: []
				});
			const dangling = Object.entries(graph).find(([, n]) =>
				Object.values(n.inputs).some((value) => isLink(value) && !(value[0] in graph))
			);
			if (step === 'invalid' || dangling) {
				const nodeId = dangling?.[0] ?? '4';
				return sendJson(res, 400, {
					error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
					node_errors: {
						[nodeId]: {
							errors: [
								{
									type: 'value_not_in_list',
									message: 'Value not in list',
									details: "ckpt_name: 'missing.safetensors' not in []",
									extra_info: {}
								}
							],
							dependent_outputs: ['9'],
							class_type: graph[nodeId]?.class_type ?? 'CheckpointLoaderSimple'
						}
					}
				});
			}
			const id = randomUUID();
			runs.set(id, { polls: 0, entry: step === 'hang' ? undefined : run(id, graph, step) });
			return sendJson(res, 200, { prompt_id: id, number: counter, node_errors: {} });
		}
		const history = /^\/history\/([^/]+)$/.exec(url.pathname);
		if (req.method === 'GET' && history) {
			const id = decodeURIComponent(history[1] ?? '');
			const found = runs.get(id);
			if (!found || found.entry === undefined || found.polls++ < (opts.pollsBeforeDone ?? 1)) return sendJson(res, 200, {});
			return sendJson(res, 200, { [id]: found.entry });
		}
		if (req.method === 'GET' && url.pathname === '/view') {
			const filename = url.searchParams.get('filename') ?? '';
			if (filename.startsWith('/') || filename.includes('..')) return sendJson(res, 400, {});
			const type = url.searchParams.get('type') ?? 'output';
			const file = files.get(`${type}/${url.searchParams.get('subfolder') ? `${url.searchParams.get('subfolder')}/` : ''}${filename}`);
			if (!file) {
				res.writeHead(404);
				return res.end();
			}
			res.writeHead(200, { 'content-type': 'image/png', 'content-disposition': `filename="${filename}"` });
			return res.end(file.bytes);
		}
		if (req.method === 'GET' && url.pathname === '/system_stats')
			return sendJson(res, 200, {
				system: {
					os: 'posix',
					ram_total: 2 ** 35,
					ram_free: 2 ** 34,
					comfyui_version: '0.3.40',
					python_version: '3.12',
					pytorch_version: '2.7',
					embedded_python: false,
					argv: ['main.py']
				},
				devices: [
					{
						name: 'cuda:0 NVIDIA GeForce RTX 4090',
						type: 'cuda',
						index: 0,
						vram_total: 2 ** 34,
						vram_free: 2 ** 33,
						torch_vram_total: 0,
						torch_vram_free: 0
					}
				]
			});
		if (req.method === 'POST' && url.pathname === '/queue') {
			const ids = (body as { delete?: unknown } | undefined)?.delete;
			if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') deleted.push(id);
			res.writeHead(200);
			return res.end();
		}
		res.writeHead(404);
		res.end();
	});

	return {
		url: server.url,
		prompts,
		calls,
		deleted,
		script: (...more) => steps.push(...more),
		close: () => server.close()
	};
}

/** ComfyUI's default text-to-image workflow in its API format ("Export (API)"), as the operator would supply it. */
export function defaultWorkflow(): Graph {
	return {
		'3': {
			class_type: 'KSampler',
			inputs: {
				cfg: 8,
				denoise: 1,
				latent_image: ['5', 0],
				model: ['4', 0],
				negative: ['7', 0],
				positive: ['6', 0],
				sampler_name: 'euler',
				scheduler: 'normal',
				seed: 8566257,
				steps: 20
			}
		},
		'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
		'5': { class_type: 'EmptyLatentImage', inputs: { batch_size: 1, height: 512, width: 512 } },
		'6': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1], text: 'masterpiece best quality girl' } },
		'7': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1], text: 'bad hands' } },
		'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
		'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } }
	};
}

/** The same workflow with a background remover between the decoder and the saver: sprites come out with alpha. */
export function spriteWorkflow(): Graph {
	const graph = defaultWorkflow();
	graph['10'] = { class_type: 'Image Remove Background (rembg)', inputs: { image: ['8', 0], transparency: true, model: 'u2net' } };
	graph['9'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'sprite', images: ['10', 0] } };
	return graph;
}

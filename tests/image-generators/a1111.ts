/**
 * FAKE of AUTOMATIC1111's web UI API (modules/api/api.py and models.py), as Forge and SD.Next keep it:
 *   POST /sdapi/v1/txt2img {prompt, negative_prompt, width, height, steps, seed, …}
 *     → 200 {images: [base64 PNG], parameters: {the request with defaults}, info: "<JSON: prompt, seed, all_seeds, …>"}
 *   GET /sdapi/v1/sd-models → [{title, model_name, hash, sha256, filename, config}]
 * With `--api-auth` (the `auth` option): no credentials → 401 {detail: "Not authenticated"}; wrong ones → 401 with the
 * api middleware's body {error: "HTTPException", detail: "Incorrect username or password", body, errors}. A failure
 * while drawing is that middleware's 500 {error, detail, body, errors}. A request body of the wrong types is FastAPI's
 * 422 {detail: [{loc, msg, type}]}. The PNG carries the `parameters` text chunk A1111 writes; an `alwayson_scripts`
 * entry for a background remover adds a second picture with alpha after the first, as such extensions do.
 */
import { listen, sendJson } from './http';
import { makePng } from './png';

export type A1111Step = 'ok' | { status: number; errors?: string } | 'hang' | 'no_images' | 'not_an_image';

export interface FakeA1111 {
	url: string;
	/** Every txt2img request: its body and Authorization header. */
	requests: { body: Record<string, unknown>; authorization: string | undefined }[];
	script(...steps: A1111Step[]): void;
	close(): Promise<void>;
}

/** Extensions the fake knows to make a picture with alpha (the name is what their API entry is keyed by). */
const BACKGROUND_REMOVERS = new Set(['ABG Remover', 'LayerDiffuse']);

export async function startFakeA1111(opts: { auth?: string } = {}): Promise<FakeA1111> {
	const requests: FakeA1111['requests'] = [];
	const steps: A1111Step[] = [];
	const server = await listen((req, url, body, res) => {
		const known =
			(req.method === 'POST' && url.pathname === '/sdapi/v1/txt2img') || (req.method === 'GET' && url.pathname === '/sdapi/v1/sd-models');
		if (!known) return sendJson(res, 404, { detail: 'Not Found' });
		const authorization = req.headers.authorization;
		if (opts.auth !== undefined) {
			if (!authorization?.startsWith('Basic ')) return sendJson(res, 401, { detail: 'Not authenticated' }, { 'www-authenticate': 'Basic' });
			if (Buffer.from(authorization.slice(6), 'base64').toString() !== opts.auth)
				return sendJson(
					res,
					401,
					{ error: 'HTTPException', detail: 'Incorrect username or password', body: '', errors: '' },
					{ 'www-authenticate': 'Basic' }
				);
		}
		if (req.method === 'GET')
			return sendJson(res, 200, [
				{
					title: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
					model_name: 'sd_xl_base_1.0',
					hash: '31e35c80fc',
					sha256: null,
					filename: '/models/sd_xl_base_1.0.safetensors',
					config: null
				}
			]);
		const request = (body ?? {}) as Record<string, unknown>;
		requests.push({ body: request, authorization });
		const bad = ['width', 'height', 'steps', 'seed'].find((k) => k in request && typeof request[k] !== 'number');
		if (typeof request['prompt'] !== 'string' || bad)
			return sendJson(res, 422, { detail: [{ loc: ['body', bad ?? 'prompt'], msg: 'value is not a valid type', type: 'type_error' }] });
		const step = steps.shift() ?? 'ok';
		if (step === 'hang') return;
		if (typeof step === 'object')
			return sendJson(res, step.status, { error: 'OutOfMemoryError', detail: '', body: '', errors: step.errors ?? 'CUDA out of memory.' });
		const width = Number(request['width'] ?? 512);
		const height = Number(request['height'] ?? 512);
		const seed = 1234567;
		const info = {
			prompt: request['prompt'],
			all_prompts: [request['prompt']],
			negative_prompt: request['negative_prompt'] ?? '',
			seed,
			all_seeds: [seed],
			width,
			height
		};
		const negative = typeof request['negative_prompt'] === 'string' ? request['negative_prompt'] : '';
		const sampleSteps = typeof request['steps'] === 'number' ? request['steps'] : 50;
		const parameters = `${String(request['prompt'])}\nNegative prompt: ${negative}\nSteps: ${sampleSteps}, Seed: ${seed}, Size: ${width}x${height}`;
		const scripts = request['alwayson_scripts'];
		const removes = typeof scripts === 'object' && scripts !== null && Object.keys(scripts).some((k) => BACKGROUND_REMOVERS.has(k));
		const pictures =
			step === 'no_images'
				? []
				: step === 'not_an_image'
					? [Buffer.from('<html>oops</html>')]
					: [
							makePng({ width, height, text: { parameters } }),
							...(removes ? [makePng({ width, height, alpha: true, text: { parameters } })] : [])
						];
		sendJson(res, 200, {
			images: pictures.map((p) => Buffer.from(p).toString('base64')),
			parameters: { ...request, sampler_name: request['sampler_name'] ?? null, steps: request['steps'] ?? 50 },
			info: JSON.stringify(info)
		});
	});
	return { url: server.url, requests, script: (...more) => steps.push(...more), close: () => server.close() };
}

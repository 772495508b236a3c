/**
 * The local generators' providers against fakes speaking ComfyUI's and AUTOMATIC1111's real HTTP APIs (the
 * providers' own `fetch`), and their configuration: success, server errors, timeouts, bad output, a workflow that
 * lacks a named node.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, parseConfig, type ComfyUiSettings } from '../../../src/lib/server/config';
import {
	A1111ImageProvider,
	ComfyUiImageProvider,
	createImageProvider,
	ImageProviderError,
	type A1111Options,
	type ComfyUiOptions
} from '../../../src/lib/server/images';
import { defaultWorkflow, readPng, spriteWorkflow, startFakeA1111, startFakeComfyUi } from '../../image-generators';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const signal = () => new AbortController().signal;
const SIZES = { sprite: { width: 64, height: 96 }, background: { width: 96, height: 64 } };

function workflowFiles(files: Record<string, unknown>): Record<string, string> {
	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-comfy-'));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
	return Object.fromEntries(
		Object.entries(files).map(([name, content]) => {
			const file = path.join(dir, name);
			writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
			return [name, file];
		})
	);
}

async function failureOf(p: Promise<unknown>): Promise<ImageProviderError> {
	try {
		await p;
	} catch (e) {
		if (e instanceof ImageProviderError) return e;
		throw new Error(`expected an ImageProviderError, got ${String(e)}`, { cause: e });
	}
	throw new Error('expected a failure');
}

describe('ComfyUI provider', () => {
	async function setup(over: Partial<ComfyUiOptions> = {}, fakeOpts: { pollsBeforeDone?: number } = {}) {
		const fake = await startFakeComfyUi(fakeOpts);
		cleanups.push(() => fake.close());
		const settings: ComfyUiSettings = {
			baseUrl: fake.url,
			workflows: { sprite: spriteWorkflow(), background: defaultWorkflow() },
			inputs: {
				prompt: { node: '6', input: 'text' },
				negative: { node: '7', input: 'text' },
				size: { width: { node: '5', input: 'width' }, height: { node: '5', input: 'height' } },
				seed: { node: '3', input: 'seed' }
			},
			outputNode: undefined
		};
		let seed = 41;
		const provider = new ComfyUiImageProvider({
			...settings,
			negativePrompt: 'text, watermark',
			sizes: SIZES,
			timeoutMs: 10_000,
			pollMs: 5,
			seed: () => ++seed,
			...over
		});
		return { fake, provider, settings };
	}

	it('queues a copy of the workflow with the prompt, negative prompt, size and a new seed, polls the history and fetches the picture', async () => {
		const { fake, provider, settings } = await setup({}, { pollsBeforeDone: 2 });
		const sprite = await provider.generate({ kind: 'sprite', prompt: 'Full-body sprite of Bram', subject: 'Bram', signal: signal() });
		const background = await provider.generate({ kind: 'background', prompt: 'A gate at dusk', subject: 'Gate', signal: signal() });

		const [first, second] = fake.prompts;
		expect(first?.client_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(second?.client_id).toBe(first?.client_id);
		expect(first?.prompt['6']?.inputs).toEqual({ clip: ['4', 1], text: 'Full-body sprite of Bram' });
		expect(first?.prompt['7']?.inputs['text']).toBe('text, watermark');
		expect(first?.prompt['5']?.inputs).toEqual({ batch_size: 1, width: 64, height: 96 });
		expect(first?.prompt['3']?.inputs['seed']).toBe(42);
		// The sprite ran the sprite workflow (with its background remover), the background the other one.
		expect(first?.prompt['10']?.class_type).toBe('Image Remove Background (rembg)');
		expect(second?.prompt['10']).toBeUndefined();
		expect(second?.prompt['5']?.inputs).toMatchObject({ width: 96, height: 64 });
		expect(second?.prompt['3']?.inputs['seed']).toBe(43);
		// Everything else is the operator's, untouched, and the operator's workflow itself is never written to.
		expect(first?.prompt['3']?.inputs).toMatchObject({ latent_image: ['5', 0], sampler_name: 'euler', steps: 20 });
		expect(settings.workflows.background['6']?.inputs['text']).toBe('masterpiece best quality girl');

		expect(fake.calls.filter((c) => c.startsWith('GET /history/')).length).toBe(6);
		expect(fake.calls.filter((c) => c === 'GET /view')).toHaveLength(2);
		expect(sprite.contentType).toBe('image/png');
		// A workflow that removes the background gives a PNG with alpha; the other doesn't.
		expect(readPng(sprite.bytes)).toMatchObject({ width: 64, height: 96, colourType: 6 });
		expect(readPng(background.bytes)).toMatchObject({ width: 96, height: 64, colourType: 2 });
	});

	it('leaves the negative prompt, size and seed alone when none are named, and takes the named output node', async () => {
		const { fake, provider } = await setup({
			inputs: { prompt: { node: '6', input: 'text' }, negative: undefined, size: undefined, seed: undefined },
			outputNode: '9'
		});
		await provider.generate({ kind: 'background', prompt: 'A gate', subject: 'Gate', signal: signal() });
		expect(fake.prompts[0]?.prompt).toEqual({
			...defaultWorkflow(),
			'6': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1], text: 'A gate' } }
		});
	});

	it('says whether a failure is worth retrying: a refused workflow and a run without a picture are not, a busy server and a failed run are', async () => {
		const { fake, provider } = await setup();
		fake.script({ status: 503 }, 'invalid', 'execution_error', 'no_images', 'not_an_image');
		const generate = () => failureOf(provider.generate({ kind: 'background', prompt: 'p', subject: 's', signal: signal() }));
		const outcomes = [await generate(), await generate(), await generate(), await generate(), await generate()];
		expect(outcomes.map((e) => [e.retryable, e.status])).toEqual([
			[true, 503],
			[false, 400],
			[true, undefined],
			[false, undefined],
			[false, undefined]
		]);
		expect(outcomes[1]?.message).toMatch(/\/prompt answered 400: Prompt outputs failed validation/);
		expect(outcomes[2]?.message).toMatch(/failed to run the workflow in node 3 \(KSampler\): Allocation on device/);
		expect(outcomes[3]?.message).toMatch(/made no image/);
		expect(outcomes[4]?.message).toMatch(/not a PNG, JPEG or WebP/);
	});

	it('gives up at its deadline (retryable) and takes the prompt off the queue; a caller that stops is obeyed at once', async () => {
		const { fake, provider } = await setup({ timeoutMs: 200 });
		fake.script('hang', 'hang');
		const timedOut = await failureOf(provider.generate({ kind: 'background', prompt: 'p', subject: 's', signal: signal() }));
		expect(timedOut).toMatchObject({ retryable: true, message: expect.stringContaining('timed out after 200 ms') });
		await expect.poll(() => fake.deleted).toEqual([expect.any(String)]);

		const controller = new AbortController();
		const pending = provider
			.generate({ kind: 'background', prompt: 'p', subject: 's', signal: controller.signal })
			.catch((e: unknown) => e);
		await expect.poll(() => fake.prompts.length).toBe(2);
		controller.abort(new Error('stopping'));
		expect(await pending).toMatchObject({ message: 'stopping' });
		await expect.poll(() => fake.deleted).toHaveLength(2);
	});

	it('fails a retryable attempt when nothing listens at the address', async () => {
		const { fake, provider } = await setup();
		await fake.close();
		const failure = await failureOf(provider.generate({ kind: 'sprite', prompt: 'p', subject: 's', signal: signal() }));
		expect(failure).toMatchObject({
			retryable: true,
			message: expect.stringMatching(/^image request to http:\/\/127\.0\.0\.1:\d+ failed: fetch failed/)
		});
	});
});

describe('AUTOMATIC1111 provider', () => {
	async function setup(over: Partial<A1111Options> = {}, auth?: string) {
		const fake = await startFakeA1111(auth === undefined ? {} : { auth });
		cleanups.push(() => fake.close());
		const provider = new A1111ImageProvider({
			baseUrl: fake.url,
			auth: undefined,
			checkpoint: undefined,
			steps: 25,
			sampler: undefined,
			cfgScale: undefined,
			spriteScripts: undefined,
			negativePrompt: undefined,
			sizes: SIZES,
			timeoutMs: 10_000,
			...over
		});
		return { fake, provider };
	}

	it('posts txt2img with the size, steps, a random seed and basic auth, and decodes the first picture', async () => {
		const { fake, provider } = await setup(
			{
				auth: { user: 'kantera', password: 'pa:ss' },
				checkpoint: 'sdxl.safetensors [31e35c80fc]',
				sampler: 'DPM++ 2M',
				cfgScale: 6.5,
				negativePrompt: 'text'
			},
			'kantera:pa:ss'
		);
		const image = await provider.generate({ kind: 'background', prompt: 'A gate at dusk', subject: 'Gate', signal: signal() });
		expect(fake.requests[0]?.authorization).toBe(`Basic ${Buffer.from('kantera:pa:ss').toString('base64')}`);
		expect(fake.requests[0]?.body).toEqual({
			prompt: 'A gate at dusk',
			negative_prompt: 'text',
			width: 96,
			height: 64,
			steps: 25,
			seed: -1,
			batch_size: 1,
			n_iter: 1,
			send_images: true,
			save_images: false,
			sampler_name: 'DPM++ 2M',
			cfg_scale: 6.5,
			override_settings: { sd_model_checkpoint: 'sdxl.safetensors [31e35c80fc]' }
		});
		expect(image.contentType).toBe('image/png');
		expect(readPng(image.bytes)).toMatchObject({ width: 96, height: 64 });
	});

	it('sends the sprite scripts with sprites only and takes the picture with alpha they add', async () => {
		const scripts = { 'ABG Remover': { args: [true, false] } };
		const { fake, provider } = await setup({ spriteScripts: scripts });
		const sprite = await provider.generate({ kind: 'sprite', prompt: 'Bram', subject: 'Bram', signal: signal() });
		const background = await provider.generate({ kind: 'background', prompt: 'Gate', subject: 'Gate', signal: signal() });
		expect(fake.requests[0]?.body['alwayson_scripts']).toEqual(scripts);
		expect(fake.requests[1]?.body).not.toHaveProperty('alwayson_scripts');
		expect(readPng(sprite.bytes)).toMatchObject({ width: 64, height: 96, colourType: 6 });
		expect(readPng(background.bytes).colourType).toBe(2);
	});

	it('says whether a failure is worth retrying: wrong credentials and bad answers are not, an out-of-memory error is', async () => {
		const { fake, provider } = await setup({ auth: { user: 'kantera', password: 'wrong' } }, 'kantera:right');
		const generate = (p: A1111ImageProvider) => failureOf(p.generate({ kind: 'background', prompt: 'p', subject: 's', signal: signal() }));
		const refused = await generate(provider);
		expect(refused).toMatchObject({ retryable: false, status: 401, message: expect.stringContaining('Incorrect username or password') });
		const noAuth = await generate((await setup({}, 'kantera:right')).provider);
		expect(noAuth).toMatchObject({ retryable: false, status: 401, message: expect.stringContaining('Not authenticated') });

		const open = await setup();
		open.fake.script({ status: 500 }, 'no_images', 'not_an_image');
		const outcomes = [await generate(open.provider), await generate(open.provider), await generate(open.provider)];
		expect(outcomes.map((e) => [e.retryable, e.status])).toEqual([
			[true, 500],
			[false, undefined],
			[false, undefined]
		]);
		expect(outcomes[0]?.message).toContain('CUDA out of memory');
		expect(outcomes[1]?.message).toMatch(/no image in images/);
		expect(outcomes[2]?.message).toMatch(/not a PNG, JPEG or WebP/);
		// Refused at the door: nothing was drawn.
		expect(fake.requests).toHaveLength(0);
	});

	it('gives up at its deadline (retryable) and stops at once when the caller aborts', async () => {
		const { fake, provider } = await setup({ timeoutMs: 200 });
		fake.script('hang', 'hang');
		const timedOut = await failureOf(provider.generate({ kind: 'background', prompt: 'p', subject: 's', signal: signal() }));
		expect(timedOut).toMatchObject({ retryable: true, message: expect.stringContaining('timed out after 200 ms') });
		const controller = new AbortController();
		const pending = provider
			.generate({ kind: 'background', prompt: 'p', subject: 's', signal: controller.signal })
			.catch((e: unknown) => e);
		await expect.poll(() => fake.requests.length).toBe(2);
		controller.abort(new Error('stopping'));
		expect(await pending).toMatchObject({ message: 'stopping' });
	});
});

describe('local generator configuration', () => {
	const comfyEnv = (files: Record<string, string>, over: Record<string, string> = {}) => ({
		KANTERA_DATA_DIR: '/tmp/x',
		KANTERA_IMAGES: 'comfyui',
		KANTERA_COMFYUI_URL: 'http://127.0.0.1:8188/',
		KANTERA_COMFYUI_WORKFLOW: files['bg.json'] ?? '',
		KANTERA_COMFYUI_PROMPT_NODE: '6',
		...over
	});

	it('reads the ComfyUI workflows at start-up and finds the inputs a bare node id means; free, but counted against regenerations', () => {
		const files = workflowFiles({ 'bg.json': defaultWorkflow(), 'sprite.json': spriteWorkflow() });
		const cfg = parseConfig(
			comfyEnv(files, {
				KANTERA_COMFYUI_SPRITE_WORKFLOW: files['sprite.json'] ?? '',
				KANTERA_COMFYUI_NEGATIVE_NODE: '7.text',
				KANTERA_COMFYUI_SIZE_NODE: '5',
				KANTERA_COMFYUI_SEED_NODE: '3',
				KANTERA_IMAGES_SPRITE_SIZE: '512x768'
			})
		);
		expect(cfg.images).toMatchObject({
			provider: 'comfyui',
			priceMicros: 0,
			regenerationsPerDay: 10,
			sizes: { sprite: { width: 512, height: 768 }, background: { width: 1216, height: 832 } },
			timeoutMs: 300_000,
			comfyui: {
				baseUrl: 'http://127.0.0.1:8188',
				inputs: {
					prompt: { node: '6', input: 'text' },
					negative: { node: '7', input: 'text' },
					size: { width: { node: '5', input: 'width' }, height: { node: '5', input: 'height' } },
					seed: { node: '3', input: 'seed' }
				}
			}
		});
		if (cfg.images.provider !== 'comfyui') throw new Error('expected comfyui');
		expect(cfg.images.comfyui.workflows.sprite['10']?.class_type).toBe('Image Remove Background (rembg)');
		expect(createImageProvider(cfg.images).id).toBe('comfyui');
		// KSamplerAdvanced calls its seed noise_seed.
		const advanced = defaultWorkflow();
		advanced['3'] = { class_type: 'KSamplerAdvanced', inputs: { noise_seed: 1, model: ['4', 0] } };
		const adv = parseConfig(comfyEnv(workflowFiles({ 'bg.json': advanced }), { KANTERA_COMFYUI_SEED_NODE: '3' }));
		expect(adv.images).toMatchObject({ comfyui: { inputs: { seed: { node: '3', input: 'noise_seed' } } } });
	});

	it('refuses to start, naming the variable, without a URL, a workflow, a prompt node, or with a workflow that lacks a named node or input', () => {
		const files = workflowFiles({
			'bg.json': defaultWorkflow(),
			'ui.json': { last_node_id: 9, nodes: [], links: [] },
			'broken.json': '{"6": ',
			'bad-node.json': { '6': { inputs: { text: 'x' } } }
		});
		const refusal = (env: Record<string, string>) => {
			try {
				parseConfig(env);
			} catch (e) {
				if (e instanceof ConfigError) return e.message;
				throw e;
			}
			throw new Error('expected a ConfigError');
		};
		const { KANTERA_COMFYUI_URL: _url, ...noUrl } = comfyEnv(files);
		expect(refusal(noUrl)).toMatch(/KANTERA_COMFYUI_URL: required/);
		expect(refusal({ ...comfyEnv(files), KANTERA_COMFYUI_WORKFLOW: '' })).toMatch(/KANTERA_COMFYUI_WORKFLOW: required/);
		expect(refusal({ ...comfyEnv(files), KANTERA_COMFYUI_PROMPT_NODE: '' })).toMatch(/KANTERA_COMFYUI_PROMPT_NODE: required/);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_WORKFLOW: '/nonexistent/flow.json' }))).toMatch(
			/KANTERA_COMFYUI_WORKFLOW: cannot read \/nonexistent\/flow\.json/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_WORKFLOW: files['ui.json'] ?? '' }))).toMatch(
			/KANTERA_COMFYUI_WORKFLOW: .*UI format.*Export \(API\)/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_WORKFLOW: files['broken.json'] ?? '' }))).toMatch(
			/KANTERA_COMFYUI_WORKFLOW: cannot read/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_WORKFLOW: files['bad-node.json'] ?? '' }))).toMatch(
			/KANTERA_COMFYUI_WORKFLOW: .*node 6/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_PROMPT_NODE: '66' }))).toMatch(
			/KANTERA_COMFYUI_PROMPT_NODE: the workflow of KANTERA_COMFYUI_WORKFLOW has no node "66"/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_PROMPT_NODE: '6.prompt' }))).toMatch(
			/KANTERA_COMFYUI_PROMPT_NODE: node "6" \(CLIPTextEncode\) .* has no input "prompt"/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_SEED_NODE: '6' }))).toMatch(
			/KANTERA_COMFYUI_SEED_NODE: .*has no input "seed" or "noise_seed"/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_SIZE_NODE: '4' }))).toMatch(/KANTERA_COMFYUI_SIZE_NODE: .*has no input "width"/);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_NEGATIVE_NODE: '7.clip' }))).toMatch(
			/KANTERA_COMFYUI_NEGATIVE_NODE: input "clip" .* wired to another node/
		);
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_OUTPUT_NODE: '12' }))).toMatch(/KANTERA_COMFYUI_OUTPUT_NODE: .*no node "12"/);
		// A sprite workflow must have every named node too.
		const spriteless = workflowFiles({ 'sprite.json': { '9': { class_type: 'SaveImage', inputs: {} } } });
		expect(refusal(comfyEnv(files, { KANTERA_COMFYUI_SPRITE_WORKFLOW: spriteless['sprite.json'] ?? '' }))).toMatch(
			/KANTERA_COMFYUI_PROMPT_NODE: the workflow of KANTERA_COMFYUI_SPRITE_WORKFLOW has no node "6"/
		);
		expect(refusal({ KANTERA_IMAGES: 'midjourney' })).toMatch(/KANTERA_IMAGES: must be offline, openai, comfyui or a1111/);
	});

	it('reads AUTOMATIC1111 settings: URL, credentials, steps, sprite scripts; refuses bad ones naming the variable', () => {
		const cfg = parseConfig({
			KANTERA_DATA_DIR: '/tmp/x',
			KANTERA_IMAGES: 'a1111',
			KANTERA_A1111_URL: 'http://127.0.0.1:7860/',
			KANTERA_A1111_AUTH: 'kantera:se:cret',
			KANTERA_A1111_SPRITE_SCRIPTS: '{"ABG Remover": {"args": [true]}}',
			KANTERA_IMAGES_NEGATIVE_PROMPT: 'text, watermark',
			KANTERA_IMAGES_TIMEOUT_S: '90'
		});
		expect(cfg.images).toMatchObject({
			provider: 'a1111',
			baseUrl: 'http://127.0.0.1:7860',
			auth: { user: 'kantera', password: 'se:cret' },
			steps: 25,
			spriteScripts: { 'ABG Remover': { args: [true] } },
			negativePrompt: 'text, watermark',
			timeoutMs: 90_000,
			priceMicros: 0,
			regenerationsPerDay: 10
		});
		expect(createImageProvider(cfg.images).id).toBe('a1111');
		expect(
			parseConfig({ KANTERA_IMAGES: 'a1111', KANTERA_A1111_URL: 'http://h:7860', KANTERA_IMAGE_PRICE_USD: '0.002' }).images.priceMicros
		).toBe(2000);
		expect(() => parseConfig({ KANTERA_IMAGES: 'a1111' })).toThrow(/KANTERA_A1111_URL: required/);
		expect(() => parseConfig({ KANTERA_IMAGES: 'a1111', KANTERA_A1111_URL: 'http://h', KANTERA_A1111_AUTH: 'nopassword' })).toThrow(
			/KANTERA_A1111_AUTH/
		);
		expect(() => parseConfig({ KANTERA_IMAGES: 'a1111', KANTERA_A1111_URL: 'http://h', KANTERA_A1111_SPRITE_SCRIPTS: '[1]' })).toThrow(
			/KANTERA_A1111_SPRITE_SCRIPTS: must be a JSON object/
		);
		expect(() => parseConfig({ KANTERA_IMAGES: 'a1111', KANTERA_A1111_URL: 'http://h', KANTERA_A1111_SPRITE_SCRIPTS: '{' })).toThrow(
			/KANTERA_A1111_SPRITE_SCRIPTS: must be JSON/
		);
	});
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '../../../src/lib/server/config';
import {
	createImageProvider,
	placeBackdropSvg,
	ImageProviderError,
	OfflineImageProvider,
	OpenAIImageProvider,
	silhouetteSvg,
	type OpenAIImagesOptions
} from '../../../src/lib/server/images';
import { startMockLlm, TINY_PNG_BASE64, type MockLlm } from '../../mock-llm';

const signal = () => new AbortController().signal;
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('offline placeholders', () => {
	const offline = new OfflineImageProvider();

	it('are byte-identical for the same input and differ by name and kind', async () => {
		const a = await offline.generate({ kind: 'background', prompt: 'p1', subject: 'North Gate', signal: signal() });
		const b = await offline.generate({ kind: 'background', prompt: 'p1', subject: 'North Gate', signal: signal() });
		const c = await offline.generate({ kind: 'background', prompt: 'p1', subject: 'Harbour', signal: signal() });
		const d = await offline.generate({ kind: 'sprite', prompt: 'p1', subject: 'North Gate', signal: signal() });
		expect(a.contentType).toBe('image/svg+xml');
		expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
		expect(decode(a.bytes)).not.toBe(decode(c.bytes));
		expect(decode(a.bytes)).not.toBe(decode(d.bytes));
	});

	it('draw each kind of place its own way (room, street, open country, night), tinted by the name; nothing from the name in the markup', () => {
		const kinds = {
			interior: placeBackdropSvg('The Crooked Lantern', 'Place: The Crooked Lantern. The smoky common room of a tavern.'),
			street: placeBackdropSvg('Harbour', 'Place: Harbour. A harbour at dawn, masts and gulls.'),
			field: placeBackdropSvg('Steppe', 'Place: Steppe. Grey grassland under a wide sky.'),
			night: placeBackdropSvg('North Gate', 'Place: North Gate. A stone city gate at night.')
		};
		expect(new Set(Object.values(kinds).map((svg) => svg.replace(/hsl\([^)]*\)/g, ''))).size).toBe(4);
		for (const svg of Object.values(kinds)) {
			expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 1600 900"/);
			expect(svg).not.toMatch(/<script|href=|style=|<text/i);
		}
		const hostile = placeBackdropSvg('Tom & <Jerry>\u0001 "Inn"', 'a room');
		expect(hostile).not.toContain('Jerry');
		// Two rooms still differ: the colour comes from the name.
		expect(placeBackdropSvg('Cellar', 'a room')).not.toBe(placeBackdropSvg('Inn', 'a room'));
	});

	it('draw a full-body silhouette on a transparent background, tinted by the name', () => {
		const svg = silhouetteSvg('Bram');
		expect(svg).toMatch(/viewBox="0 0 400 1000"/);
		// No full-size backdrop shape: everything outside the figure stays transparent.
		expect(svg).not.toMatch(/<rect[^>]*width="400"[^>]*height="1000"/);
		expect(svg).toContain('<ellipse');
		expect(silhouetteSvg('Mira')).not.toBe(svg);
		expect(svg).not.toMatch(/<script|href=/i);
	});

	it("cut a very long name to a small title, and an expression sprite wears the expression's face, not its word", () => {
		expect(silhouetteSvg('x'.repeat(500))).toContain(`<title>${'x'.repeat(59)}…</title>`);
		const smile = silhouetteSvg('Mira(smile & <wink> and more)');
		expect(smile).toContain('data-mood="happy"');
		expect(smile).not.toContain('<text');
		expect(smile.replace(/<title>.*<\/title>/, '')).not.toContain('wink');
		expect(silhouetteSvg('Mira(angry)')).toContain('data-mood="angry"');
		expect(silhouetteSvg('Mira')).toContain('data-mood="neutral"');
	});
});

describe('OpenAI images wire format (the real openai SDK against the mock vendor)', () => {
	let mock: MockLlm;
	beforeEach(async () => {
		mock = await startMockLlm();
	});
	afterEach(async () => {
		await mock.close();
	});

	const options = (over: Partial<OpenAIImagesOptions> = {}): OpenAIImagesOptions => ({
		id: 'openai',
		baseUrl: mock.openaiBaseUrl,
		apiKey: 'sk-images',
		model: 'gpt-image-1',
		transparentSprites: true,
		quality: 'medium',
		sizes: { sprite: '1024x1536', background: '1536x1024' },
		...over
	});
	const failureOf = (provider: OpenAIImageProvider) =>
		provider.generate({ kind: 'background', prompt: 'p', subject: 's', signal: signal() }).then(
			() => {
				throw new Error('expected a failure');
			},
			(e: unknown) => {
				if (!(e instanceof ImageProviderError)) throw new Error(`expected an ImageProviderError, got ${String(e)}`);
				return e;
			}
		);

	it('posts to /images/generations with the key, asks for a transparent PNG for sprites, and decodes b64_json', async () => {
		const provider = new OpenAIImageProvider(options());
		const sprite = await provider.generate({ kind: 'sprite', prompt: 'Full-body sprite of Bram', subject: 'Bram', signal: signal() });
		expect(sprite.contentType).toBe('image/png');
		expect(Buffer.from(sprite.bytes).toString('base64')).toBe(TINY_PNG_BASE64);
		await provider.generate({ kind: 'background', prompt: 'A gate at dusk', subject: 'Gate', signal: signal() });
		expect(mock.images.requests.map((r) => [r.path, r.headers['authorization']])).toEqual([
			['/v1/images/generations', 'Bearer sk-images'],
			['/v1/images/generations', 'Bearer sk-images']
		]);
		expect(mock.images.requests[0]?.body).toEqual({
			model: 'gpt-image-1',
			prompt: 'Full-body sprite of Bram',
			n: 1,
			size: '1024x1536',
			quality: 'medium',
			background: 'transparent',
			output_format: 'png'
		});
		// Backgrounds are opaque; gpt-image models always answer in base64, so no response_format.
		expect(mock.images.requests[1]?.body).toEqual({
			model: 'gpt-image-1',
			prompt: 'A gate at dusk',
			n: 1,
			size: '1536x1024',
			quality: 'medium'
		});
	});

	it('asks a compatible server for base64 in its own sizes and sends no transparency or key when not configured', async () => {
		const provider = new OpenAIImageProvider(
			options({
				id: 'openai-compatible',
				apiKey: undefined,
				model: 'sdxl',
				transparentSprites: false,
				quality: undefined,
				sizes: { sprite: '512x768', background: '768x512' }
			})
		);
		expect(provider.id).toBe('openai-compatible');
		await provider.generate({ kind: 'sprite', prompt: 'Bram', subject: 'Bram', signal: signal() });
		expect(mock.images.requests[0]?.headers['authorization']).toBeUndefined();
		expect(mock.images.requests[0]?.body).toEqual({ model: 'sdxl', prompt: 'Bram', n: 1, size: '512x768', response_format: 'b64_json' });
	});

	it('says whether a failure is worth retrying, and how long the service asked to wait', async () => {
		const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
		mock.images.script([
			{ fault: { kind: 'status', status: 503 } },
			{ fault: { kind: 'status', status: 429, retryAfterSeconds: 30 } },
			{ fault: { kind: 'status', status: 429, retryAfter: inTwoMinutes } },
			{ fault: { kind: 'status', status: 400 } },
			{ fault: { kind: 'status', status: 401 } },
			{ image: 'url-only' },
			{ image: 'not-an-image' }
		]);
		const provider = new OpenAIImageProvider(options());
		const outcomes: ImageProviderError[] = [];
		for (let i = 0; i < 7; i++) outcomes.push(await failureOf(provider));
		expect(outcomes.map((e) => [e.retryable, e.status])).toEqual([
			[true, 503],
			[true, 429],
			[true, 429],
			[false, 400],
			[false, 401],
			[false, undefined],
			[false, undefined]
		]);
		expect(outcomes.map((e) => e.retryAfterMs)).toEqual([
			undefined,
			30_000,
			expect.any(Number),
			undefined,
			undefined,
			undefined,
			undefined
		]);
		expect(outcomes[2]?.retryAfterMs).toBeGreaterThan(100_000);
		expect(outcomes[3]?.message).toContain('scripted 400');
		expect(outcomes[5]?.message).toMatch(/no b64_json.*response_format/);
		expect(outcomes[6]?.message).toMatch(/not a PNG, JPEG or WebP/);
		// One request per call: the SDK's own retries are off, the job runner decides.
		expect(mock.images.requests).toHaveLength(7);
	});

	it('abandons an attempt at its timeout (retryable) and stops at once when the caller aborts', async () => {
		mock.images.script([{ fault: { kind: 'hang' }, times: 2 }]);
		const timedOut = await failureOf(new OpenAIImageProvider(options({ timeoutMs: 50 })));
		expect(timedOut).toMatchObject({ retryable: true, message: expect.stringContaining('timed out') });
		const controller = new AbortController();
		const slow = new OpenAIImageProvider(options());
		const pending = slow.generate({ kind: 'background', prompt: 'p', subject: 's', signal: controller.signal }).catch((e: unknown) => e);
		controller.abort(new Error('stopping'));
		expect(await pending).toMatchObject({ message: 'stopping' });
	});
});

describe('image configuration', () => {
	it('defaults to the offline provider at no cost, with ten hand-made regenerations a day', () => {
		const cfg = parseConfig({ KANTERA_DATA_DIR: '/tmp/x' });
		expect(cfg.images).toEqual({ provider: 'offline', priceMicros: 0, regenerationsPerDay: 10 });
		expect(parseConfig({ KANTERA_IMAGE_REGENERATIONS_PER_DAY: '0' }).images.regenerationsPerDay).toBe(0);
		expect(() => parseConfig({ KANTERA_IMAGE_REGENERATIONS_PER_DAY: 'many' })).toThrow(/KANTERA_IMAGE_REGENERATIONS_PER_DAY/);
		expect(createImageProvider(cfg.images).id).toBe('offline');
	});

	it('uses OpenAI with OPENAI_API_KEY, transparent sprites and a default price', () => {
		const cfg = parseConfig({ KANTERA_DATA_DIR: '/tmp/x', KANTERA_IMAGES: 'openai', OPENAI_API_KEY: 'sk-llm' });
		expect(cfg.images).toMatchObject({
			provider: 'openai',
			baseUrl: undefined,
			apiKey: 'sk-llm',
			model: 'gpt-image-1',
			transparentSprites: true,
			priceMicros: 40_000
		});
		expect(createImageProvider(cfg.images).id).toBe('openai');
	});

	it('never sends the OpenAI key to another server, needs a model there, and reads the price', () => {
		const cfg = parseConfig({
			KANTERA_DATA_DIR: '/tmp/x',
			KANTERA_IMAGES: 'openai',
			OPENAI_API_KEY: 'sk-llm',
			KANTERA_IMAGES_BASE_URL: 'http://localhost:8080/v1',
			KANTERA_IMAGES_MODEL: 'sdxl',
			KANTERA_IMAGE_PRICE_USD: '0.01'
		});
		expect(cfg.images).toMatchObject({
			provider: 'openai',
			apiKey: undefined,
			model: 'sdxl',
			transparentSprites: false,
			priceMicros: 10_000
		});
		expect(createImageProvider(cfg.images).id).toBe('openai-compatible');
		expect(() => parseConfig({ KANTERA_IMAGES: 'openai', KANTERA_IMAGES_BASE_URL: 'http://localhost:8080/v1' })).toThrow(
			/KANTERA_IMAGES_MODEL/
		);
		expect(() => parseConfig({ KANTERA_IMAGES: 'openai' })).toThrow(ConfigError);
		expect(() => parseConfig({ KANTERA_IMAGES: 'dalle' })).toThrow(/KANTERA_IMAGES/);
		expect(() => parseConfig({ KANTERA_IMAGE_PRICE_USD: 'free' })).toThrow(/KANTERA_IMAGE_PRICE_USD/);
	});
});

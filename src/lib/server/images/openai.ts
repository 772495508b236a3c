/**
 * Images from the OpenAI images API (`POST {baseUrl}/images/generations`) or any server speaking its
 * wire format (LocalAI, vLLM-style gateways…), through the `openai` SDK (its client comes from llm).
 * One attempt per call with a timeout; retries are the job runner's (the server's one retry policy),
 * which is why errors say whether another try could help and how long the server asked us to wait.
 */
import * as v from 'valibot';
import { callOpenAiEndpoint, createOpenAiEndpointClient, type OpenAiEndpointClient } from '../llm';
import { ImageProviderError } from './errors';
import { sniffRaster, type GeneratedImage, type ImageProvider, type ImageRequest } from './provider';

export const OPENAI_IMAGES_BASE_URL = 'https://api.openai.com/v1';
/** gpt-image-1 takes up to a minute or two for a large image; past this the attempt is abandoned. */
export const IMAGE_REQUEST_TIMEOUT_MS = 180_000;
/** A decoded image larger than this is refused: no stage image needs it, and it bounds memory. */
const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
/** base64 grows data by 4/3. */
const MAX_BASE64_CHARS = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4;

const ResponseSchema = v.object({
	data: v.pipe(
		v.array(
			v.object({
				b64_json: v.optional(
					v.pipe(v.string(), v.maxLength(MAX_BASE64_CHARS, 'image is too large'), v.regex(/^[A-Za-z0-9+/=\s]*$/, 'b64_json is not base64'))
				),
				url: v.optional(v.string())
			})
		),
		v.minLength(1, 'no image in data')
	)
});

export interface OpenAIImagesOptions {
	/** `openai` for OpenAI itself, `openai-compatible` for another server. */
	id: 'openai' | 'openai-compatible';
	/** Up to and including `/v1`. */
	baseUrl: string;
	apiKey: string | undefined;
	model: string;
	/** Ask for `background: "transparent"` on sprites (OpenAI's gpt-image models support it; many servers don't). */
	transparentSprites: boolean;
	quality: string | undefined;
	sizes: { sprite: string; background: string };
	timeoutMs?: number;
}

export class OpenAIImageProvider implements ImageProvider {
	readonly id: string;
	/** Named in error messages (the SDK appends `/images/generations` to the base URL). */
	private readonly url: string;
	private readonly client: OpenAiEndpointClient;

	constructor(private readonly options: OpenAIImagesOptions) {
		this.id = options.id;
		const baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.url = `${baseUrl}/images/generations`;
		this.client = createOpenAiEndpointClient({ baseUrl, apiKey: options.apiKey || undefined });
	}

	/** The JSON body sent for a request: exported through the class for the wire-format tests. */
	body(request: Pick<ImageRequest, 'kind' | 'prompt'>): Record<string, unknown> {
		const { model, quality, sizes, transparentSprites } = this.options;
		// gpt-image models always answer in base64 and reject response_format; older models and most
		// compatible servers answer with a URL unless asked for base64.
		const gptImage = /^gpt-image/i.test(model);
		const transparent = request.kind === 'sprite' && transparentSprites;
		return {
			model,
			prompt: request.prompt,
			n: 1,
			size: request.kind === 'sprite' ? sizes.sprite : sizes.background,
			...(quality ? { quality } : {}),
			...(gptImage ? {} : { response_format: 'b64_json' }),
			// Transparency needs a format with an alpha channel; PNG is the one every server has.
			...(transparent ? { background: 'transparent', output_format: 'png' } : {})
		};
	}

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		const timeoutMs = this.options.timeoutMs ?? IMAGE_REQUEST_TIMEOUT_MS;
		// The SDK's generic post, not `images.generate`: its typed sizes and qualities are OpenAI's own lists, and a
		// compatible server may take others (512x768). The answer is validated below either way.
		const result = await callOpenAiEndpoint(
			(options) => this.client.post<unknown>('/images/generations', { body: this.body(request), ...options }),
			request.signal,
			timeoutMs
		);
		if (!result.ok) {
			const { detail, status, retryable, retryAfterMs } = result.failure;
			throw new ImageProviderError(`image request to ${this.url} ${detail}`, retryable, status, retryAfterMs);
		}
		return this.decode(result.value);
	}

	private decode(json: unknown): GeneratedImage {
		const parsed = v.safeParse(ResponseSchema, json);
		if (!parsed.success)
			throw new ImageProviderError(`image response from ${this.url} has an unexpected shape: ${parsed.issues[0].message}`, false);
		const first = parsed.output.data[0];
		if (!first?.b64_json) {
			throw new ImageProviderError(
				`image response from ${this.url} has no b64_json image${first?.url ? ' (only a URL; the server must support response_format "b64_json")' : ''}`,
				false
			);
		}
		const bytes = new Uint8Array(Buffer.from(first.b64_json, 'base64'));
		if (bytes.length > MAX_IMAGE_BYTES)
			throw new ImageProviderError(`image from ${this.url} is larger than ${MAX_IMAGE_BYTES} bytes`, false);
		const contentType = sniffRaster(bytes);
		if (!contentType) throw new ImageProviderError(`image from ${this.url} is not a PNG, JPEG or WebP file`, false);
		return { bytes, contentType };
	}
}

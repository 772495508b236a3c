/**
 * Images from AUTOMATIC1111's web UI or its forks that keep its API (Forge, SD.Next), started with `--api`:
 * `POST /sdapi/v1/txt2img` with `{prompt, negative_prompt, width, height, steps, seed, …}` answers
 * `{images: [base64], parameters, info}` once the picture is drawn. `--api-auth user:password` is HTTP basic auth.
 *
 * Transparency is no part of the standard API: an extension does it (a background remover, Forge's LayerDiffuse)
 * when its `alwayson_scripts` entry is sent, which is what KANTERA_A1111_SPRITE_SCRIPTS holds. Such extensions add
 * their picture to `images`; for a sprite the first picture with an alpha channel is taken, else the first.
 */
import * as v from 'valibot';
import type { A1111Settings, LocalGeneratorSettings } from '../config';
import { ImageProviderError } from './errors';
import { sniffRaster, type GeneratedImage, type ImageProvider, type ImageRequest } from './provider';
import { readJson, send, withDeadline } from './service-call';
import { UPLOAD_LIMITS } from './upload';

/** base64 grows data by 4/3. */
const MAX_BASE64_CHARS = Math.ceil((UPLOAD_LIMITS.bytes * 4) / 3) + 4;
/** A few pictures (an extension's extra ones) and the parameters echoed back. */
const MAX_JSON_BYTES = 4 * MAX_BASE64_CHARS;
/** A1111's "pick one at random". */
const RANDOM_SEED = -1;

const ResponseSchema = v.looseObject({
	images: v.pipe(
		v.nullish(
			v.array(
				v.pipe(v.string(), v.maxLength(MAX_BASE64_CHARS, 'image is too large'), v.regex(/^[A-Za-z0-9+/=\s]*$/, 'image is not base64'))
			),
			[]
		),
		v.minLength(1, 'no image in images')
	)
});

export type A1111Options = A1111Settings & LocalGeneratorSettings;

/** Whether a PNG has an alpha channel (colour types 4 and 6) or a transparency chunk, read from its chunks before the picture data. */
function hasAlpha(bytes: Uint8Array): boolean {
	if (sniffRaster(bytes) !== 'image/png') return false;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const PNG_SIGNATURE = 8;
	for (let at = PNG_SIGNATURE; at + 8 <= bytes.byteLength; at += 12 + view.getUint32(at)) {
		const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
		// IHDR's colour type is its tenth byte: after the width, the height and the bit depth.
		if (type === 'IHDR' && (bytes[at + 17] === 4 || bytes[at + 17] === 6)) return true;
		if (type === 'tRNS') return true;
		if (type === 'IDAT') return false;
	}
	return false;
}

export class A1111ImageProvider implements ImageProvider {
	readonly id = 'a1111';
	private readonly url: string;

	constructor(private readonly options: A1111Options) {
		this.url = `${options.baseUrl}/sdapi/v1/txt2img`;
	}

	/** The JSON body sent for a request: exported through the class for the wire-format tests. */
	body(request: Pick<ImageRequest, 'kind' | 'prompt'>): Record<string, unknown> {
		const { checkpoint, steps, sampler, cfgScale, spriteScripts, negativePrompt, sizes } = this.options;
		const size = request.kind === 'sprite' ? sizes.sprite : sizes.background;
		return {
			prompt: request.prompt,
			negative_prompt: negativePrompt ?? '',
			width: size.width,
			height: size.height,
			steps,
			seed: RANDOM_SEED,
			batch_size: 1,
			n_iter: 1,
			send_images: true,
			// Kantera keeps its own copy; the server's output folder would only fill up.
			save_images: false,
			...(sampler ? { sampler_name: sampler } : {}),
			...(cfgScale === undefined ? {} : { cfg_scale: cfgScale }),
			// Switching models costs the server a reload, then it stays: only when the operator asked for one.
			...(checkpoint ? { override_settings: { sd_model_checkpoint: checkpoint } } : {}),
			...(request.kind === 'sprite' && spriteScripts ? { alwayson_scripts: spriteScripts } : {})
		};
	}

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		const what = `image request to ${this.url}`;
		const { auth } = this.options;
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (auth) headers['authorization'] = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
		const answer = await withDeadline(what, request.signal, this.options.timeoutMs, async (signal) =>
			readJson(
				await send(this.url, { method: 'POST', headers, body: JSON.stringify(this.body(request)), signal }, what),
				ResponseSchema,
				MAX_JSON_BYTES,
				what
			)
		);
		const pictures = answer.images.map((b64) => new Uint8Array(Buffer.from(b64, 'base64')));
		const wantsAlpha = request.kind === 'sprite' && this.options.spriteScripts !== undefined;
		const bytes = (wantsAlpha ? pictures.find(hasAlpha) : undefined) ?? pictures[0];
		const contentType = bytes && sniffRaster(bytes);
		if (!bytes || !contentType) throw new ImageProviderError(`image from ${this.url} is not a PNG, JPEG or WebP file`, false);
		return { bytes, contentType };
	}
}

/**
 * Image generation settings. With nothing set the app draws offline placeholders (no network, no
 * cost), so the stage is always complete; `KANTERA_IMAGES=openai` switches to the OpenAI images API,
 * or to any server speaking its wire format when `KANTERA_IMAGES_BASE_URL` is set; `comfyui` and
 * `a1111` to a local generator (ComfyUI with the operator's workflow, or AUTOMATIC1111 / Forge /
 * SD.Next), which cost nothing unless a price is set.
 */
import * as v from 'valibot';
import { Bool, dollars, HttpUrl, NonEmpty, NonNegativeInt, PositiveInt } from './env-values';
import { dollarsToMicros } from './prices';
import { COMFYUI_ENV_ENTRIES, comfyUiSettings, type ComfyUiSettings } from './comfyui';

const Size = v.pipe(v.string(), v.trim(), v.regex(/^\d{2,5}x\d{2,5}$/, 'must be WIDTHxHEIGHT, e.g. 1024x1536'));
const Dollars = dollars('0.04');
/** `user:password`, as AUTOMATIC1111's `--api-auth` takes it. */
const UserPassword = v.pipe(v.string(), v.trim(), v.regex(/^[^:]+:.+$/, 'must be user:password, as given to --api-auth'));
const CfgScale = v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/, 'must be a number, e.g. 7'), v.transform(Number));
/** A JSON object, e.g. `{"ABG Remover": {"args": [true]}}`. */
const JsonObject = v.pipe(
	v.string(),
	v.parseJson(undefined, 'must be JSON, e.g. {"ABG Remover": {"args": [true]}}'),
	v.custom<unknown>(
		(value) => typeof value === 'object' && value !== null && !Array.isArray(value),
		'must be a JSON object, e.g. {"ABG Remover": {"args": [true]}}'
	),
	v.record(v.string(), v.unknown())
);

/** Spread into the environment schema of config/index.ts. */
export const IMAGES_ENV_ENTRIES = {
	/**
	 * `offline` (deterministic placeholders, the default), `openai` (the OpenAI images API or a compatible server),
	 * `comfyui` or `a1111` (AUTOMATIC1111, Forge, SD.Next).
	 */
	KANTERA_IMAGES: v.optional(v.picklist(['offline', 'openai', 'comfyui', 'a1111'], 'must be offline, openai, comfyui or a1111'), 'offline'),
	/** An OpenAI-compatible server, up to and including `/v1`; unset means OpenAI itself. */
	KANTERA_IMAGES_BASE_URL: v.optional(HttpUrl),
	/** Falls back to OPENAI_API_KEY only for OpenAI itself: that key is never sent to another server. */
	KANTERA_IMAGES_API_KEY: v.optional(NonEmpty),
	KANTERA_IMAGES_MODEL: v.optional(NonEmpty),
	/** Ask for a transparent background for sprites; default on for OpenAI's gpt-image models, off otherwise. */
	KANTERA_IMAGES_TRANSPARENT: v.optional(Bool),
	/** Sent as `quality` when set (OpenAI: low, medium, high, auto). */
	KANTERA_IMAGES_QUALITY: v.optional(NonEmpty),
	KANTERA_IMAGES_SPRITE_SIZE: v.optional(Size),
	KANTERA_IMAGES_BACKGROUND_SIZE: v.optional(Size),
	/** Charged per generated image against the session and user budgets; default 0 offline, 0.04 for openai. */
	KANTERA_IMAGE_PRICE_USD: v.optional(Dollars),
	/** Hand-made regenerations each user may order per UTC day; 0 turns the allowance off. */
	KANTERA_IMAGE_REGENERATIONS_PER_DAY: v.optional(NonNegativeInt, '10'),
	/** What a local generator is told to leave out (comfyui with a negative node, a1111). */
	KANTERA_IMAGES_NEGATIVE_PROMPT: v.optional(NonEmpty),
	/** How long one image may take on a local generator (queue included), in seconds. */
	KANTERA_IMAGES_TIMEOUT_S: v.optional(PositiveInt),
	...COMFYUI_ENV_ENTRIES,
	/** The AUTOMATIC1111 / Forge / SD.Next server, e.g. http://127.0.0.1:7860 (started with --api). */
	KANTERA_A1111_URL: v.optional(HttpUrl),
	KANTERA_A1111_AUTH: v.optional(UserPassword),
	KANTERA_A1111_STEPS: v.optional(PositiveInt),
	KANTERA_A1111_SAMPLER: v.optional(NonEmpty),
	KANTERA_A1111_CFG_SCALE: v.optional(CfgScale),
	/** `alwayson_scripts` sent with sprites only: an extension that makes the background transparent. */
	KANTERA_A1111_SPRITE_SCRIPTS: v.optional(JsonObject)
};

type ImagesEnv = v.InferOutput<v.ObjectSchema<typeof IMAGES_ENV_ENTRIES, undefined>> & { OPENAI_API_KEY?: string };

const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
/** Portrait and landscape sizes SDXL models are trained on; SD 1.5 models want 512x768 and 768x512. */
const DEFAULT_LOCAL_SPRITE_SIZE = '832x1216';
const DEFAULT_LOCAL_BACKGROUND_SIZE = '1216x832';
/** A local GPU draws an image in seconds to a minute; a queue ahead of us or a CPU takes longer. */
const DEFAULT_LOCAL_TIMEOUT_S = 300;
const DEFAULT_A1111_STEPS = 25;
const MS_PER_SECOND = 1000;

/** OpenAI's list price for a medium-quality image, near enough for a budget. */
const DEFAULT_OPENAI_IMAGE_PRICE_USD = 0.04;
/** Portrait for a standing figure, landscape for a backdrop: sizes gpt-image-1 accepts. */
const DEFAULT_SPRITE_SIZE = '1024x1536';
const DEFAULT_BACKGROUND_SIZE = '1536x1024';
const DEFAULT_OPENAI_QUALITY = 'medium';

/** What applies whichever service draws: the price of an image and the regeneration allowance. */
interface ImageCommon {
	priceMicros: number;
	/** Hand-made regenerations per user per UTC day; 0 means no allowance (unlimited). */
	regenerationsPerDay: number;
}

export type ImagesConfig =
	| ({ provider: 'offline' } & ImageCommon)
	| ({
			provider: 'openai';
			/** Undefined means OpenAI itself. */
			baseUrl: string | undefined;
			apiKey: string | undefined;
			model: string;
			transparentSprites: boolean;
			quality: string | undefined;
			spriteSize: string;
			backgroundSize: string;
	  } & ImageCommon)
	| ({ provider: 'comfyui'; comfyui: ComfyUiSettings } & LocalGeneratorSettings & ImageCommon)
	| ({ provider: 'a1111' } & A1111Settings & LocalGeneratorSettings & ImageCommon);

/** What both local generators take. */
export interface LocalGeneratorSettings {
	negativePrompt: string | undefined;
	sizes: { sprite: { width: number; height: number }; background: { width: number; height: number } };
	timeoutMs: number;
}

export interface A1111Settings {
	baseUrl: string;
	auth: { user: string; password: string } | undefined;
	/** Sent as `override_settings.sd_model_checkpoint` when set; unset, the server's loaded model draws. */
	checkpoint: string | undefined;
	steps: number;
	sampler: string | undefined;
	cfgScale: number | undefined;
	spriteScripts: Record<string, unknown> | undefined;
}

function dimensions(size: string): { width: number; height: number } {
	const [width = 0, height = 0] = size.split('x').map(Number);
	return { width, height };
}

function localCommon(e: ImagesEnv): LocalGeneratorSettings {
	return {
		negativePrompt: e.KANTERA_IMAGES_NEGATIVE_PROMPT,
		sizes: {
			sprite: dimensions(e.KANTERA_IMAGES_SPRITE_SIZE ?? DEFAULT_LOCAL_SPRITE_SIZE),
			background: dimensions(e.KANTERA_IMAGES_BACKGROUND_SIZE ?? DEFAULT_LOCAL_BACKGROUND_SIZE)
		},
		timeoutMs: (e.KANTERA_IMAGES_TIMEOUT_S ?? DEFAULT_LOCAL_TIMEOUT_S) * MS_PER_SECOND
	};
}

export function imagesConfig(e: ImagesEnv): ImagesConfig | { error: string } {
	const regenerationsPerDay = e.KANTERA_IMAGE_REGENERATIONS_PER_DAY;
	// A local generator's images cost the operator electricity, not a bill per image: free unless priced.
	const localPrice = dollarsToMicros(e.KANTERA_IMAGE_PRICE_USD ?? 0);
	if (e.KANTERA_IMAGES === 'offline') return { provider: 'offline', priceMicros: localPrice, regenerationsPerDay };
	if (e.KANTERA_IMAGES === 'comfyui') {
		const comfyui = comfyUiSettings(e);
		if ('error' in comfyui) return comfyui;
		return { provider: 'comfyui', comfyui, ...localCommon(e), priceMicros: localPrice, regenerationsPerDay };
	}
	if (e.KANTERA_IMAGES === 'a1111') {
		if (e.KANTERA_A1111_URL === undefined) return { error: 'KANTERA_A1111_URL: required when KANTERA_IMAGES=a1111' };
		const colon = e.KANTERA_A1111_AUTH?.indexOf(':') ?? -1;
		return {
			provider: 'a1111',
			baseUrl: e.KANTERA_A1111_URL.replace(/\/+$/, ''),
			auth:
				e.KANTERA_A1111_AUTH === undefined
					? undefined
					: { user: e.KANTERA_A1111_AUTH.slice(0, colon), password: e.KANTERA_A1111_AUTH.slice(colon + 1) },
			checkpoint: e.KANTERA_IMAGES_MODEL,
			steps: e.KANTERA_A1111_STEPS ?? DEFAULT_A1111_STEPS,
			sampler: e.KANTERA_A1111_SAMPLER,
			cfgScale: e.KANTERA_A1111_CFG_SCALE,
			spriteScripts: e.KANTERA_A1111_SPRITE_SCRIPTS,
			...localCommon(e),
			priceMicros: localPrice,
			regenerationsPerDay
		};
	}
	const own = e.KANTERA_IMAGES_BASE_URL === undefined;
	const apiKey = e.KANTERA_IMAGES_API_KEY ?? (own ? e.OPENAI_API_KEY : undefined);
	if (own && apiKey === undefined)
		return {
			error:
				'KANTERA_IMAGES_API_KEY: required when KANTERA_IMAGES=openai (or set OPENAI_API_KEY, or KANTERA_IMAGES_BASE_URL for another server)'
		};
	// Another server's model names are its own; guessing one would fail on the first image instead of at start-up.
	if (!own && e.KANTERA_IMAGES_MODEL === undefined) return { error: 'KANTERA_IMAGES_MODEL: required when KANTERA_IMAGES_BASE_URL is set' };
	const model = e.KANTERA_IMAGES_MODEL ?? DEFAULT_IMAGE_MODEL;
	return {
		provider: 'openai',
		baseUrl: e.KANTERA_IMAGES_BASE_URL,
		apiKey,
		model,
		// OpenAI's gpt-image models take `background: transparent`; its older models and other servers may reject it.
		transparentSprites: e.KANTERA_IMAGES_TRANSPARENT ?? (own && /^gpt-image/i.test(model)),
		quality: e.KANTERA_IMAGES_QUALITY ?? (own ? DEFAULT_OPENAI_QUALITY : undefined),
		spriteSize: e.KANTERA_IMAGES_SPRITE_SIZE ?? DEFAULT_SPRITE_SIZE,
		backgroundSize: e.KANTERA_IMAGES_BACKGROUND_SIZE ?? DEFAULT_BACKGROUND_SIZE,
		priceMicros: dollarsToMicros(e.KANTERA_IMAGE_PRICE_USD ?? DEFAULT_OPENAI_IMAGE_PRICE_USD),
		regenerationsPerDay
	};
}

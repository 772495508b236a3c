/**
 * Image generation settings. With nothing set the app draws offline placeholders (no network, no
 * cost), so the stage is always complete; `KANTERA_IMAGES=openai` switches to the OpenAI images API,
 * or to any server speaking its wire format when `KANTERA_IMAGES_BASE_URL` is set.
 */
import * as v from 'valibot';
import { Bool, dollars, HttpUrl, NonEmpty, NonNegativeInt } from './env-values';
import { dollarsToMicros } from './prices';

const Size = v.pipe(v.string(), v.trim(), v.regex(/^\d{2,5}x\d{2,5}$/, 'must be WIDTHxHEIGHT, e.g. 1024x1536'));
const Dollars = dollars('0.04');

/** Spread into the environment schema of config/index.ts. */
export const IMAGES_ENV_ENTRIES = {
	/** `offline` (deterministic placeholders, the default) or `openai` (the OpenAI images API or a compatible server). */
	KANTERA_IMAGES: v.optional(v.picklist(['offline', 'openai'], 'must be offline or openai'), 'offline'),
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
	KANTERA_IMAGE_REGENERATIONS_PER_DAY: v.optional(NonNegativeInt, '10')
};

type ImagesEnv = v.InferOutput<v.ObjectSchema<typeof IMAGES_ENV_ENTRIES, undefined>> & { OPENAI_API_KEY?: string };

const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
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
	  } & ImageCommon);

export function imagesConfig(e: ImagesEnv): ImagesConfig | { error: string } {
	const regenerationsPerDay = e.KANTERA_IMAGE_REGENERATIONS_PER_DAY;
	if (e.KANTERA_IMAGES === 'offline')
		return { provider: 'offline', priceMicros: dollarsToMicros(e.KANTERA_IMAGE_PRICE_USD ?? 0), regenerationsPerDay };
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

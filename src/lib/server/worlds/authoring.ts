/**
 * The preset fields that bring a world in from elsewhere and send it out again (Character Cards,
 * lorebooks), kept together so the schema's other parts stay as they were. All are optional: a
 * preset stored before they existed reads with their defaults.
 *
 * - `opening.narration`: what the player reads after the title card, before the first turn (the
 *   screen's script: narration paragraphs and `@Name: …` lines). Player-visible. Distinct from
 *   `opening.situation`, the GM-only note on how to open the story.
 * - `opening.alternatives`: other openings the player may pick on the title card. Player-visible.
 * - `notes`: the author's own notes (a card's creator notes). Never shown to players, never sent to the GM.
 * - `tags`, `attribution` (creator, version, sources), `rating` (general or mature): public facts about the world.
 * - `remixAllowed`: others who may see the preset may also export it, and remix it into a draft of their own.
 * - `remixOf`: the world this one was remixed from (title, author, address), kept through every save and export.
 * - `card`: what an import kept for a lossless export (card fields the preset does not reproduce,
 *   unknown fields, lorebook entries' own fields) and the import's report. Never shown, never sent to the GM.
 */
import * as v from 'valibot';
import { isJsonObject, isJsonValue, MAX_BODY_CHARS, MAX_NAME_CHARS, type JsonObject, type JsonValue } from '../records';
import { controlCharacterMessage, jsonHasControlCharacter, withoutControlCharacters } from '../validation';
import { ImportReportSchema, PresetRatingSchema } from '../../types/presets';
import { normaliseTag, tagKey } from '../../presets/tags';

/** Openings a player may choose from on the title card, besides the first. */
export const MAX_OPENING_CHOICES = 8;
export const MAX_TAGS = 30;
export const MAX_TAG_CHARS = 40;
export const MAX_SOURCES = 20;
const MAX_SOURCE_CHARS = 2_000;
/** What an import may keep for export: a card's unused fields, within the preset's own size limit. */
export const MAX_CARD_KEEP_BYTES = 300_000;
/** Nesting a kept JSON value may have: far more than any card uses, far less than a stack overflow needs. */
export const MAX_KEPT_JSON_DEPTH = 32;

/** A line that may be blank: trimmed, one line, bounded. */
const optionalLine = (max: number, what: string) =>
	v.pipe(
		v.string(),
		withoutControlCharacters(what),
		v.trim(),
		v.maxLength(max, `${what} is longer than ${max} characters.`),
		v.regex(/^[^\r\n]*$/, `${what} must be a single line.`)
	);

const narration = (what: string) =>
	v.pipe(
		v.string(),
		withoutControlCharacters(what),
		v.trim(),
		v.maxLength(MAX_BODY_CHARS, `${what} is longer than ${MAX_BODY_CHARS} characters.`)
	);

const OpeningChoiceSchema = v.object({
	label: v.pipe(optionalLine(MAX_NAME_CHARS, 'An opening label'), v.nonEmpty('An opening label is empty.')),
	narration: v.pipe(narration('An opening narration'), v.nonEmpty('An opening narration is empty.'))
});

/** The opening's fields added here (spread into the schema's `opening`). */
export const OPENING_NARRATION_FIELDS = {
	narration: v.optional(narration('The opening narration'), ''),
	alternatives: v.optional(
		v.pipe(
			v.array(OpeningChoiceSchema),
			v.maxLength(MAX_OPENING_CHOICES, `A preset offers at most ${MAX_OPENING_CHOICES} other openings.`)
		),
		[]
	)
};

/** Depth of a JSON value, counted without recursion (a hostile value must not overflow the stack). */
export function jsonDepth(value: unknown): number {
	let deepest = 0;
	const stack: [unknown, number][] = [[value, 1]];
	while (stack.length > 0) {
		const next = stack.pop();
		if (!next) break;
		const [item, depth] = next;
		if (typeof item !== 'object' || item === null) continue;
		deepest = Math.max(deepest, depth);
		if (depth > MAX_KEPT_JSON_DEPTH) return depth;
		for (const inner of Object.values(item)) stack.push([inner, depth + 1]);
	}
	return deepest;
}

const KeptJson = v.custom<JsonValue>(
	(value) => jsonDepth(value) <= MAX_KEPT_JSON_DEPTH && isJsonValue(value),
	'A kept card value is not plain JSON.'
);
const KeptObject = v.custom<JsonObject>(
	(value) => jsonDepth(value) <= MAX_KEPT_JSON_DEPTH && isJsonValue(value) && isJsonObject(value),
	'A kept card object is not a plain JSON object.'
);

export const CardKeepSchema = v.pipe(
	v.object({
		/** The spec the card came in (`chara_card_v2`, `chara_card_v3`, `lorebook_v3`, `world_info`). */
		spec: optionalLine(MAX_NAME_CHARS, 'The kept card spec'),
		/** Card fields the preset does not give back as they were: the value, and a fingerprint of what the preset gave instead. */
		data: v.record(v.string(), v.object({ value: KeptJson, shown: v.string() })),
		/** Fields beside `spec`, `spec_version` and `data` (a V1 card's copies, an app's own). */
		top: KeptObject,
		/** Each lorebook entry's own fields (ids, flags, extensions), by the heading it became. */
		lore: v.record(v.string(), KeptObject),
		report: ImportReportSchema
	}),
	v.check((keep) => !jsonHasControlCharacter(keep), controlCharacterMessage('The kept card data')),
	v.check(
		(keep) => new TextEncoder().encode(JSON.stringify(keep)).byteLength <= MAX_CARD_KEEP_BYTES,
		`The kept card data is larger than ${MAX_CARD_KEEP_BYTES} bytes.`
	)
);
export type CardKeep = v.InferOutput<typeof CardKeepSchema>;

/** Where a remix came from: shown on its page and carried by its exports (the original may change or go). */
export const RemixOfSchema = v.object({
	id: v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The remixed preset id is not one.'), v.maxLength(64)),
	title: optionalLine(MAX_NAME_CHARS, 'The remixed title'),
	author: optionalLine(MAX_NAME_CHARS, 'The remixed author')
});
export type RemixOf = v.InferOutput<typeof RemixOfSchema>;

/** The top-level fields added here (spread into the preset schema). */
export const AUTHORING_FIELDS = {
	notes: v.optional(
		v.pipe(
			v.string(),
			withoutControlCharacters("The author's notes"),
			v.maxLength(MAX_BODY_CHARS, `The author's notes are longer than ${MAX_BODY_CHARS} characters.`)
		),
		''
	),
	tags: v.optional(
		v.pipe(
			v.array(v.pipe(optionalLine(MAX_TAG_CHARS, 'A tag'), v.transform(normaliseTag), v.nonEmpty('A tag is empty.'))),
			v.maxLength(MAX_TAGS, `A preset has at most ${MAX_TAGS} tags.`),
			v.check((tags) => new Set(tags.map(tagKey)).size === tags.length, 'Two tags are the same.')
		),
		[]
	),
	rating: v.optional(PresetRatingSchema, 'general'),
	attribution: v.optional(
		v.object({
			creator: v.optional(optionalLine(MAX_NAME_CHARS, 'The creator'), ''),
			version: v.optional(optionalLine(MAX_NAME_CHARS, 'The version'), ''),
			source: v.optional(
				v.pipe(v.array(v.pipe(optionalLine(MAX_SOURCE_CHARS, 'A source'), v.nonEmpty('A source is empty.'))), v.maxLength(MAX_SOURCES)),
				[]
			)
		}),
		{ creator: '', version: '', source: [] }
	),
	remixAllowed: v.optional(v.boolean(), false),
	remixOf: v.optional(RemixOfSchema),
	card: v.optional(CardKeepSchema)
};

/**
 * A world preset: everything a session starts from — premise, world setting, PC sheet, NPCs with
 * their look, the GM's behaviour in this world, the GM-only secrets and the opening scene. One
 * valibot schema for the shipped worlds and, later, for the ones players write, so both are held
 * to the same limits the records and the stage enforce when the preset is seeded.
 *
 * What is player-visible and what is GM-only is fixed by the field, not by the author:
 * - player-visible: title, tagline, the three documents, NPC names, roles and appearances, the
 *   opening scene, narration and other openings, the opening state, tags and attribution;
 * - GM-only: NPC personalities, the GM behaviour (part of the pinned mission), the plot and the
 *   secrets (story DB);
 * - the author's alone: the notes and what a card import kept (see authoring.ts).
 * A secret may list `markers`, the phrases that give it away; `findLeaks` checks that none of them
 * turns up in a player-visible field (and so in a document the player reads or an image prompt).
 * `anachronisms` (GM-side) lists what the world does not have; in play, the markers of secrets not yet
 * revealed and these terms are checked in the GM's words before the player sees them (`canon/`).
 */
import * as v from 'valibot';
import { isJsonObject, isJsonValue, MAX_BODY_CHARS, MAX_NAME_CHARS, type JsonObject } from '../records';
import { MAX_LOOK_CHARS, MAX_STAGE_NAME_CHARS } from '../stage';
import { MAX_SPEAKER_CHARS, STAGE_SLOTS } from '../../adv';
import { LanguageSchema } from '../../types/settings';
import { controlCharacterMessage, jsonHasControlCharacter, withoutControlCharacters } from '../validation';
import { findLeaks } from '../../presets/leaks';
import { countHeadings } from '../../presets/form';
import { TERM_SEPARATOR } from '../../presets/anachronisms';
import { AUTHORING_FIELDS, OPENING_NARRATION_FIELDS } from './authoring';

export { findLeaks } from '../../presets/leaks';

/** A picker line: short enough to sit under a title on a phone. */
export const MAX_TAGLINE_CHARS = 200;
/** NPCs a preset brings: enough for a cast, few enough that the first screen's image orders stay bounded. */
export const MAX_WORLD_NPCS = 8;
export const MAX_WORLD_SECRETS = 20;
export const MAX_SECRET_MARKERS = 10;
/** Things a world does not have: enough for an era's inventions, few enough to keep every check of the GM's words quick. */
export const MAX_ANACHRONISMS = 40;
export const MAX_ANACHRONISM_TERMS = 12;
/** A term is a word or a short phrase; the stream is held back at most this long while one may be forming. */
export const MAX_CANON_TERM_CHARS = 60;
/** A world setting is meant to be read in sections: this many headings at least. */
export const MIN_SETTING_HEADINGS = 3;

const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const singleLine = (max: number, what: string) =>
	v.pipe(
		v.string(),
		withoutControlCharacters(what),
		v.trim(),
		v.nonEmpty(`${what} is empty.`),
		v.maxLength(max, `${what} is longer than ${max} characters.`),
		v.regex(/^[^\r\n]*$/, `${what} must be a single line.`)
	);

const text = (max: number, what: string) =>
	v.pipe(
		v.string(),
		withoutControlCharacters(what),
		v.check((s) => s.trim() !== '', `${what} is empty.`),
		v.maxLength(max, `${what} is longer than ${max} characters.`)
	);

const WorldDocumentSchema = v.object({
	title: singleLine(MAX_NAME_CHARS, 'A document title'),
	/** Markdown; headings become the sections recall returns. */
	body: text(MAX_BODY_CHARS, 'A document body')
});

/** Characters the speaker-tag grammar (`@Name(expression): …`, src/lib/adv/script.ts) reserves. */
const TAG_RESERVED = /[@＠:：()（）]/;

const WorldNpcSchema = v.object({
	/** The name on the stage and in speaker tags, so it must be writable as a tag. */
	name: v.pipe(
		singleLine(Math.min(MAX_STAGE_NAME_CHARS, MAX_SPEAKER_CHARS), 'An NPC name'),
		v.check((name) => !TAG_RESERVED.test(name), 'An NPC name cannot hold @ : ( ) (the speaker tag uses them).')
	),
	/** Who they are, as anyone in the world could say it (player-visible). */
	role: singleLine(MAX_NAME_CHARS, 'An NPC role'),
	/** Visual only — hair, build, clothing, colours — for the sprite prompt. Never a secret. */
	appearance: text(MAX_LOOK_CHARS, 'An NPC appearance'),
	/** Voice, manner, wants and fears, for the GM (GM-only). */
	personality: text(MAX_BODY_CHARS, 'An NPC personality')
});

const WorldSecretSchema = v.object({
	/** The story-DB key of the truth. */
	key: v.pipe(v.string(), v.regex(ID_PATTERN, 'A secret key is lower-case words joined by hyphens.'), v.maxLength(MAX_NAME_CHARS)),
	title: singleLine(MAX_NAME_CHARS, 'A secret title'),
	body: text(MAX_BODY_CHARS, 'A secret'),
	/** Phrases that give the secret away; they must not appear anywhere the player can see. */
	markers: v.optional(v.pipe(v.array(singleLine(MAX_NAME_CHARS, 'A secret marker')), v.maxLength(MAX_SECRET_MARKERS)), [])
});

const TERM_PUNCTUATION = new RegExp(`${TERM_SEPARATOR.source}|[:：]`);

/** Something this world does not have (issue 27): the GM's words are checked for its terms before the player sees them. */
const AnachronismSchema = v.object({
	/** The words that name it; each is matched as a word in English, anywhere in Japanese, across case and width. */
	terms: v.pipe(
		v.array(
			v.pipe(
				singleLine(MAX_CANON_TERM_CHARS, 'A term'),
				v.check((t) => !TERM_PUNCTUATION.test(t), 'A term cannot hold a comma or a colon (they separate terms and the note).')
			)
		),
		v.minLength(1, 'An entry needs at least one term.'),
		v.maxLength(MAX_ANACHRONISM_TERMS)
	),
	/** Why it does not exist here, for the GM when the player brings it up. */
	note: v.optional(singleLine(MAX_NAME_CHARS, 'A note'))
});

const JsonObjectSchema = v.pipe(
	v.custom<JsonObject>((value) => isJsonValue(value) && isJsonObject(value), 'The opening state must be a JSON object.'),
	v.check((state) => !jsonHasControlCharacter(state), controlCharacterMessage('The opening state'))
);

const WorldOpeningSchema = v.object({
	scene: v.object({
		name: singleLine(MAX_STAGE_NAME_CHARS, 'The opening scene name'),
		/** Visual only, for the first background. */
		description: text(MAX_LOOK_CHARS, 'The opening scene description')
	}),
	/** Names of the NPCs on stage when play begins, at most one per slot. */
	present: v.pipe(v.array(singleLine(MAX_STAGE_NAME_CHARS, 'A present NPC')), v.maxLength(STAGE_SLOTS.length)),
	/** How the GM should open the first turn (GM-only: it may point at what the player does not know yet). */
	situation: text(MAX_BODY_CHARS, 'The opening situation'),
	/** The state record the session starts with (location, in-game time, HP, inventory…). */
	state: JsonObjectSchema,
	/** What the player reads after the title card, and the other openings they may pick (authoring.ts). */
	...OPENING_NARRATION_FIELDS
});

export const WorldPresetSchema = v.pipe(
	v.object({
		id: v.pipe(v.string(), v.regex(ID_PATTERN, 'A world id is lower-case words joined by hyphens.'), v.maxLength(MAX_NAME_CHARS)),
		language: LanguageSchema,
		title: singleLine(MAX_NAME_CHARS, 'The world title'),
		tagline: singleLine(MAX_TAGLINE_CHARS, 'The tagline'),
		documents: v.object({
			premise: WorldDocumentSchema,
			setting: WorldDocumentSchema,
			pc: WorldDocumentSchema
		}),
		/** Title of the GM-only document that holds the NPC personalities and the opening situation. */
		gmNotesTitle: singleLine(MAX_NAME_CHARS, 'The GM notes title'),
		npcs: v.pipe(v.array(WorldNpcSchema), v.minLength(1, 'A world needs at least one NPC.'), v.maxLength(MAX_WORLD_NPCS)),
		/** How to run this world; becomes part of the pinned mission. */
		gmBehaviour: text(MAX_BODY_CHARS, 'The GM behaviour'),
		/** The main plot skeleton (story DB, GM-only). */
		plot: v.object({ title: singleLine(MAX_NAME_CHARS, 'The plot title'), body: text(MAX_BODY_CHARS, 'The plot') }),
		/** None is fine: a companion story may have no hidden truth. */
		secrets: v.pipe(v.array(WorldSecretSchema), v.maxLength(MAX_WORLD_SECRETS)),
		opening: WorldOpeningSchema,
		/** Notes, tags, attribution, remix and what a card import kept (authoring.ts). */
		...AUTHORING_FIELDS,
		/** What does not exist in this world (issue 27). */
		anachronisms: v.optional(v.pipe(v.array(AnachronismSchema), v.maxLength(MAX_ANACHRONISMS)), [])
	}),
	// Cross-field rules are reported on the field to fix, and checked as soon as the fields they read
	// are valid (partialCheck), so an editor shows them next to the other errors, not after.
	v.forward(
		v.partialCheck([['npcs']], (w) => new Set(w.npcs.map((n) => n.name)).size === w.npcs.length, 'Two NPCs share a name.'),
		['npcs']
	),
	v.forward(
		v.partialCheck([['secrets']], (w) => new Set(w.secrets.map((s) => s.key)).size === w.secrets.length, 'Two secrets share a key.'),
		['secrets']
	),
	v.forward(
		v.partialCheck(
			[['npcs'], ['opening', 'present']],
			(w) => w.opening.present.every((name) => w.npcs.some((n) => n.name === name)),
			'The opening names an NPC the world does not have.'
		),
		['opening', 'present']
	),
	v.forward(
		v.partialCheck(
			[['opening', 'present']],
			(w) => new Set(w.opening.present).size === w.opening.present.length,
			'The opening names an NPC twice.'
		),
		['opening', 'present']
	),
	v.forward(
		v.partialCheck(
			[['documents', 'setting', 'body']],
			(w) => countHeadings(w.documents.setting.body) >= MIN_SETTING_HEADINGS,
			`The world setting needs at least ${MIN_SETTING_HEADINGS} markdown headings, so it is searched by section.`
		),
		// valibot types forward paths two keys deep; the editor shows it on the setting's body.
		['documents', 'setting']
	),
	v.check((w) => findLeaks(w).length === 0, 'A secret marker appears in a player-visible field; run findLeaks for where.')
);

export type WorldPreset = v.InferOutput<typeof WorldPresetSchema>;
export type WorldPresetInput = v.InferInput<typeof WorldPresetSchema>;

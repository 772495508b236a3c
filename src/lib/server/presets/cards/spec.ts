/**
 * The interchange files Kantera reads, told apart and checked where they enter:
 * - Character Card V3 (`chara_card_v3`) and V2 (`chara_card_v2`): the fields under `data`;
 * - a V1 card (no `spec`: `name`, `description`, `first_mes`… at the top), read as V2 says to;
 * - a lorebook alone: CCv3's `lorebook_v3` (`{ spec, data: Lorebook }`), a V2 `character_book`
 *   (`{ entries: [{ keys, content }] }`), or a SillyTavern World Info file (`entries` keyed by uid,
 *   or an array, each with `key`, `content`, `constant`, `order`, `disable`).
 * Every lorebook becomes the same list of entries, in the order the file gives them (by
 * `insertion_order` / `order`, then by position), each with the fields Kantera has no use for kept
 * as they were. Strings may be null in real files: read as empty, kept as they were for export.
 */
import * as v from 'valibot';
import { isJsonObject, type JsonObject, type JsonValue } from '../../records';
import { withoutControlCharacters } from '../../validation';
import { importError } from '../errors';

export const CARD_SPECS = ['chara_card_v2', 'chara_card_v3'] as const;
export type CardSpec = (typeof CARD_SPECS)[number];
/** Entries a lorebook may bring: real ones have dozens, a large one a few hundred. */
export const MAX_LORE_ENTRIES = 1_000;
/** Keys an entry may have. */
const MAX_ENTRY_KEYS = 100;

/** The card fields Kantera reads, by name (everything else under `data` is kept as it is). */
export const KNOWN_CARD_FIELDS = [
	'name',
	'description',
	'personality',
	'scenario',
	'first_mes',
	'mes_example',
	'creator_notes',
	'system_prompt',
	'post_history_instructions',
	'alternate_greetings',
	'tags',
	'creator',
	'character_version',
	'source',
	'nickname',
	'character_book',
	'extensions'
] as const;

/**
 * Card text, refused with a control character in it as every text field is (README, Security → Text
 * input): SQLite would store it cut at a NUL, the draft's title first of all.
 */
const cardText = (what = 'The text') => v.pipe(v.string('must be text'), withoutControlCharacters(what));
/** A string field that may be missing or null in a real file. */
const text = v.pipe(
	v.optional(v.nullable(cardText()), ''),
	v.transform((s) => s ?? '')
);
const strings = (what: string) =>
	v.pipe(
		v.optional(
			v.nullable(
				v.array(v.pipe(v.string(`${what} must be a list of text`), withoutControlCharacters('The text')), `${what} must be a list of text`)
			),
			[]
		),
		v.transform((a) => a ?? [])
	);

const CardDataSchema = v.looseObject({
	name: v.pipe(
		v.string('the card has no character name'),
		withoutControlCharacters('The character name'),
		v.trim(),
		v.nonEmpty('the card has no character name')
	),
	description: text,
	personality: text,
	scenario: text,
	first_mes: text,
	mes_example: text,
	creator_notes: text,
	system_prompt: text,
	post_history_instructions: text,
	alternate_greetings: strings('alternate_greetings'),
	tags: strings('tags'),
	creator: text,
	character_version: text,
	source: strings('source'),
	nickname: text,
	character_book: v.optional(v.unknown()),
	extensions: v.optional(v.unknown())
});
export type CardData = v.InferOutput<typeof CardDataSchema>;

export interface ParsedCard {
	readonly spec: CardSpec | 'v1';
	readonly data: CardData;
	/** `data` as it came, for keeping what Kantera does not read. */
	readonly raw: JsonObject;
	/** Fields beside `spec`, `spec_version` and `data`. */
	readonly top: JsonObject;
	readonly lore: LoreEntry[];
	readonly bookName: string;
}

/** One lorebook entry, whatever the file called its fields. */
export interface LoreEntry {
	/** Where it was in the file, for the report (`data.character_book.entries.3`, `entries.12`). */
	readonly at: string;
	readonly name: string;
	readonly keys: string[];
	readonly content: string;
	readonly constant: boolean;
	readonly enabled: boolean;
	readonly order: number;
	/** The entry's other fields (ids, secondary keys, flags, extensions), kept for export. */
	readonly extra: JsonObject;
}

/** Lorebook entry fields in the card specs (`keys`…) and in SillyTavern's World Info (`key`…). */
const EntrySchema = v.looseObject({
	keys: v.optional(v.array(cardText(), 'keys must be a list of text')),
	key: v.optional(v.array(cardText(), 'key must be a list of text')),
	content: v.pipe(
		v.optional(v.nullable(v.pipe(v.string('content must be text'), withoutControlCharacters('The text'))), ''),
		v.transform((s) => s ?? '')
	),
	name: v.optional(v.nullable(cardText())),
	comment: v.optional(v.nullable(cardText())),
	constant: v.optional(v.nullable(v.boolean())),
	enabled: v.optional(v.nullable(v.boolean())),
	disable: v.optional(v.nullable(v.boolean())),
	insertion_order: v.optional(v.nullable(v.number())),
	order: v.optional(v.nullable(v.number()))
});
/** The entry fields Kantera reads; the rest stay in `extra`. */
const READ_ENTRY_FIELDS = new Set([
	'keys',
	'key',
	'content',
	'name',
	'comment',
	'constant',
	'enabled',
	'disable',
	'insertion_order',
	'order'
]);

function refuse(spec: string, issue: v.BaseIssue<unknown>, prefix: string): never {
	const path = [prefix, v.getDotPath(issue)].filter((p) => p).join('.');
	// The schema's own detail (valibot's wording) stays as it is; the sentence around it is the reader's.
	throw path
		? importError('import.error.cardMalformedAt', { spec, path, detail: issue.message })
		: importError('import.error.cardMalformed', { spec, detail: issue.message });
}

function entriesOf(value: unknown): { list: unknown[]; keyed: boolean } | null {
	if (!isJsonObject(value)) return null;
	const entries = value.entries;
	if (Array.isArray(entries)) return { list: entries, keyed: false };
	if (isJsonObject(entries ?? null)) return { list: Object.values(entries as JsonObject), keyed: true };
	return null;
}

/** A lorebook's entries in the order the file means, each read; PresetError('bad_import') for a broken one. */
export function readLorebook(book: unknown, spec: string, prefix: string): LoreEntry[] {
	const found = entriesOf(book);
	if (!found)
		throw importError('import.error.cardMalformedAt', { spec, path: prefix || 'entries', detail: 'the lorebook must list its entries' });
	if (found.list.length > MAX_LORE_ENTRIES)
		throw importError('import.error.tooManyEntries', { count: found.list.length, max: MAX_LORE_ENTRIES });
	const entries = found.list.map((item, i) => {
		const at = `${prefix ? `${prefix}.` : ''}entries.${i}`;
		const parsed = v.safeParse(EntrySchema, item);
		if (!parsed.success) refuse(spec, parsed.issues[0], at);
		const e = parsed.output;
		const keys = (e.keys ?? e.key ?? []).map((k) => k.trim()).filter((k) => k !== '');
		if (keys.length > MAX_ENTRY_KEYS)
			throw importError('import.error.cardMalformedAt', { spec, path: `${at}.keys`, detail: `more than ${MAX_ENTRY_KEYS} keys` });
		const extra: JsonObject = {};
		for (const [k, value] of Object.entries(item as JsonObject)) if (!READ_ENTRY_FIELDS.has(k)) extra[k] = value;
		// What the file called the entry, kept even when blank, so an export writes it back.
		for (const k of ['name', 'comment'] as const) if (e[k] !== undefined) extra[k] = e[k];
		return {
			at,
			name: (e.name ?? '').trim() || (e.comment ?? '').trim(),
			keys,
			content: e.content,
			constant: e.constant ?? false,
			enabled: e.enabled ?? !(e.disable ?? false),
			order: e.insertion_order ?? e.order ?? 100,
			extra,
			position: i
		};
	});
	// A stable sort: entries of the same order keep the file's order.
	return entries.sort((a, b) => a.order - b.order || a.position - b.position).map(({ position: _position, ...entry }) => entry);
}

/** A card (V1, V2, V3), checked; PresetError('bad_import') says what is wrong. */
export function parseCard(json: JsonObject): ParsedCard {
	const specValue = json.spec;
	let spec: CardSpec | 'v1';
	let raw: JsonObject;
	if (specValue === undefined) {
		spec = 'v1';
		raw = json;
	} else if (typeof specValue === 'string' && CARD_SPECS.some((s) => s === specValue)) {
		spec = specValue as CardSpec;
		if (!isJsonObject(json.data ?? null))
			throw importError('import.error.cardMalformedAt', { spec, path: 'data', detail: 'the card has no data' });
		raw = json.data as JsonObject;
	} else {
		throw importError('import.error.cardSpec', { spec: JSON.stringify(specValue).slice(0, 60) });
	}
	const parsed = v.safeParse(CardDataSchema, raw);
	if (!parsed.success) refuse(spec, parsed.issues[0], spec === 'v1' ? '' : 'data');
	const top: JsonObject = {};
	if (spec !== 'v1') for (const [k, value] of Object.entries(json)) if (!['spec', 'spec_version', 'data'].includes(k)) top[k] = value;
	const book = parsed.output.character_book;
	const lore = book === undefined || book === null ? [] : readLorebook(book, spec, 'data.character_book');
	const bookName = isJsonObject(book ?? null) && typeof (book as JsonObject).name === 'string' ? ((book as JsonObject).name as string) : '';
	return { spec, data: parsed.output, raw, top, lore, bookName };
}

export type ExchangeFile =
	| { kind: 'card'; card: ParsedCard }
	| { kind: 'lorebook'; spec: 'lorebook_v3' | 'world_info' | 'character_book'; name: string; entries: LoreEntry[]; top: JsonObject };

/** What a JSON file is: a card, a lorebook, or neither (null: the caller tries other formats). */
export function readExchangeFile(json: unknown): ExchangeFile | null {
	if (!isJsonObject(json ?? null) || Array.isArray(json)) return null;
	const obj = json as JsonObject;
	if (obj.spec === 'lorebook_v3') {
		const data = isJsonObject(obj.data ?? null) ? (obj.data as JsonObject) : undefined;
		if (!data) throw importError('import.error.cardMalformedAt', { spec: 'lorebook_v3', path: 'data', detail: 'the lorebook has no data' });
		const { entries: _entries, ...rest } = data;
		return {
			kind: 'lorebook',
			spec: 'lorebook_v3',
			name: typeof data.name === 'string' ? data.name : '',
			entries: readLorebook(data, 'lorebook_v3', 'data'),
			top: rest
		};
	}
	if (obj.spec !== undefined || (typeof obj.name === 'string' && ('first_mes' in obj || 'description' in obj)))
		return { kind: 'card', card: parseCard(obj) };
	const found = entriesOf(obj);
	if (found) {
		const first = found.list.find((e) => isJsonObject((e ?? null) as JsonValue)) as JsonObject | undefined;
		const spec = found.keyed || (first !== undefined && 'key' in first) ? 'world_info' : 'character_book';
		const { entries: _entries, ...rest } = obj;
		return { kind: 'lorebook', spec, name: typeof obj.name === 'string' ? obj.name : '', entries: readLorebook(obj, spec, ''), top: rest };
	}
	return null;
}

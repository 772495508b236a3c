/**
 * A preset as a Character Card V3's fields. The card's character is the preset's first NPC; its
 * look goes back into the description under a label, the personality and the example dialogue into
 * theirs, the opening narration into the greeting (script back to asterisks and quotes), the other
 * openings into the alternate greetings, the world setting's sections into the lorebook, the GM
 * behaviour into the system prompt, the notes into the creator notes.
 *
 * What a card import kept (`preset.card`, see worlds/authoring.ts) makes the export lossless: a
 * field is written back as it came wherever the preset still gives what the import made of it (the
 * fingerprint of that is kept with the value), and every field Kantera has no use for comes back as
 * it was. The whole preset rides along in `extensions.kantera`, so a card Kantera exported reads
 * back as the same preset, unless someone changed the card since.
 */
import { createHash } from 'node:crypto';
import { isJsonObject, type JsonObject, type JsonValue } from '../../records';
import type { CardKeep } from '../../worlds';
import type { Language } from '../../../types/settings';
import { scriptToGreeting } from './script';
import { settingToBook } from './lore';

/** The preset's fields a card is made from: a stored preset and the form's input alike. */
export interface CardSource {
	readonly language: Language;
	readonly title: string;
	readonly documents: { readonly premise: { readonly body: string }; readonly setting: { readonly body: string } };
	readonly npcs: readonly { readonly name: string; readonly appearance: string; readonly personality: string }[];
	readonly gmBehaviour: string;
	readonly opening: { readonly narration?: string; readonly alternatives?: readonly { readonly narration: string }[] };
	readonly notes?: string;
	readonly tags?: readonly string[];
	readonly attribution?: { readonly creator: string; readonly version: string; readonly source: readonly string[] };
}

export const CARD_WORDS: Record<Language, { examples: string; look: string; player: string }> = {
	ja: { examples: '会話の例', look: '外見', player: 'プレイヤー' },
	en: { examples: 'Example dialogue', look: 'Appearance', player: 'Player' }
};

/** What the import remembers a field by: a short hash of the value the preset gives for it (absent: of nothing). */
export function fingerprint(value: JsonValue | undefined): string {
	return createHash('sha256')
		.update(value === undefined ? '\u0000' : JSON.stringify(value))
		.digest('hex')
		.slice(0, 16);
}

const EXAMPLES_HEADING = /^##[ \t]+(?:Example dialogue|会話の例)[ \t]*$/m;

/** An NPC personality as the import wrote it: the personality, then the example dialogue under its heading. */
export function splitPersonality(personality: string): { personality: string; examples: string } {
	const m = EXAMPLES_HEADING.exec(personality);
	if (!m) return { personality: personality.trim(), examples: '' };
	return { personality: personality.slice(0, m.index).trim(), examples: personality.slice(m.index + m[0].length).trim() };
}

/** The example dialogue back in card form: `@Name:` and the player's lines as `{{char}}:` and `{{user}}:`, under `<START>`. */
function examplesToCard(examples: string, name: string, language: Language): string {
	if (examples === '') return '';
	const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const lines = examples
		.replace(new RegExp(`^@${escaped}[ \\t]*:`, 'gm'), '{{char}}:')
		.replace(new RegExp(`^${CARD_WORDS[language].player}[ \\t]*[:：]`, 'gm'), '{{user}}:');
	return `<START>\n${lines}`;
}

/** The card fields a preset gives, before anything kept is put back (`extensions` aside). */
export function cardFields(preset: CardSource): Record<string, JsonValue | undefined> {
	const npc = preset.npcs[0];
	const name = npc?.name.trim() || preset.title;
	const { personality, examples } = splitPersonality(npc?.personality ?? '');
	const look = npc?.appearance.trim() ?? '';
	const words = CARD_WORDS[preset.language];
	return {
		name,
		description: [look ? `${words.look}: ${look}` : '', personality].filter((p) => p !== '').join('\n\n'),
		personality: '',
		scenario: preset.documents.premise.body.trim(),
		first_mes: scriptToGreeting(preset.opening.narration ?? ''),
		mes_example: examplesToCard(examples, name, preset.language),
		creator_notes: preset.notes ?? '',
		system_prompt: preset.gmBehaviour.trim(),
		post_history_instructions: '',
		alternate_greetings: (preset.opening.alternatives ?? []).map((a) => scriptToGreeting(a.narration)),
		tags: [...(preset.tags ?? [])],
		creator: preset.attribution?.creator ?? '',
		character_version: preset.attribution?.version ?? '',
		source: [...(preset.attribution?.source ?? [])],
		character_book: settingToBook(preset.documents.setting.body, {}, '')
	};
}

/** The fields with what was kept put back (see the module comment); `lore` gives a regenerated lorebook its entries' own fields. */
export function withKept(fields: Record<string, JsonValue | undefined>, preset: CardSource, keep: CardKeep | undefined): JsonObject {
	const out: JsonObject = {};
	const book = keep ? settingToBook(preset.documents.setting.body, keep.lore, '') : fields.character_book;
	for (const [name, value] of Object.entries({ ...fields, character_book: book })) if (value !== undefined) out[name] = value;
	for (const [name, kept] of Object.entries(keep?.data ?? {})) {
		if (name === 'extensions') continue;
		if (fingerprint(fields[name]) === kept.shown) out[name] = kept.value;
	}
	return out;
}

export interface CardEnvelope {
	readonly spec: 'chara_card_v3';
	readonly spec_version: '3.0';
	readonly data: JsonObject;
	readonly [top: string]: JsonValue;
}

/** A V1 card's copies at the top of the file mirror these fields: they follow the data, not the past. */
const V1_COPIES = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example'];

/**
 * The whole card: the fields, what was kept, the V3 fields a card must have, and `extensions` with
 * the preset in `kantera` (`embed` is given the card's fingerprint to store with the preset).
 */
export function presetToCard(
	preset: CardSource,
	keep: CardKeep | undefined,
	embed: (fingerprint: string) => JsonObject,
	/** Fields the export gives afresh over what an import kept (`assets`: the art as it is now). */
	fresh: JsonObject = {}
): CardEnvelope {
	const data = { ...withKept(cardFields(preset), preset, keep), ...fresh };
	if (!Array.isArray(data.group_only_greetings)) data.group_only_greetings = [];
	const keptExtensions = keep?.data.extensions?.value;
	const extensions: JsonObject = isJsonObject(keptExtensions ?? null) ? { ...(keptExtensions as JsonObject) } : {};
	extensions.kantera = embed(fingerprint(data));
	const top: JsonObject = { ...(keep?.top ?? {}) };
	for (const name of V1_COPIES) if (name in top && data[name] !== undefined) top[name] = data[name];
	return { ...top, spec: 'chara_card_v3', spec_version: '3.0', data: { ...data, extensions } };
}

/** A card's fields without `extensions`: what the fingerprint in `extensions.kantera` was taken of. */
export function cardFingerprint(data: JsonObject): string {
	const { extensions: _extensions, ...rest } = data;
	return fingerprint(rest);
}

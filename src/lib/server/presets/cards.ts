/**
 * Character Card V2 / V3 (`chara_card_v2`, `chara_card_v3`: the JSON most role-play front ends
 * export, alone or base64 in a PNG's `chara` / `ccv3` tEXt chunk) turned into a draft preset:
 * - the character becomes the preset's NPC: its description is the look to start from (the author
 *   trims it to what can be seen), description + personality + example dialogue are the GM-only
 *   personality;
 * - scenario → the premise; first_mes (and the alternate greetings) → the opening situation;
 * - system_prompt and post_history_instructions → the GM behaviour;
 * - character_book (lorebook) entries → sections of the world setting, one heading each.
 * The PC sheet, plot, secrets and opening scene have no counterpart in a card: the draft leaves them
 * for the author, and the editor says what is missing.
 */
import * as v from 'valibot';
import { emptyForm, PresetFormSchema, type PresetForm } from '../../presets/form';
import type { Language } from '../../types/settings';
import { importError } from './errors';
import { withoutControlCharacters } from '../validation';

const CARD_SPECS = ['chara_card_v2', 'chara_card_v3'] as const;

/**
 * Card text, refused with a control character in it as every text field is (README, Security → Text
 * input): SQLite would store it cut at a NUL, the draft's title first of all.
 */
const cardText = v.pipe(v.string('must be text'), withoutControlCharacters('The text'));
const text = v.optional(cardText, '');

const LorebookEntry = v.looseObject({
	keys: v.optional(v.array(cardText), []),
	content: v.pipe(v.string('a lorebook entry must have content text'), withoutControlCharacters('The text')),
	name: v.optional(cardText),
	comment: v.optional(cardText),
	enabled: v.optional(v.boolean(), true),
	insertion_order: v.optional(v.number())
});

const Lorebook = v.looseObject({
	name: v.optional(cardText),
	entries: v.array(LorebookEntry, 'the lorebook must list its entries')
});

const CardData = v.looseObject({
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
	alternate_greetings: v.optional(v.array(cardText), []),
	nickname: v.optional(cardText),
	character_book: v.optional(v.nullable(Lorebook))
});

const Card = v.looseObject({
	spec: v.picklist(CARD_SPECS),
	data: CardData
});

export type CharacterCard = v.InferOutput<typeof Card>;

const HAS_SPEC = v.looseObject({ spec: v.unknown() });

/** A parsed card, or PresetError('bad_import') saying what is wrong with it. */
export function parseCard(json: unknown): CharacterCard {
	if (typeof json !== 'object' || json === null || Array.isArray(json)) throw importError('import.error.cardNotObject');
	const withSpec = v.safeParse(HAS_SPEC, json);
	const spec = withSpec.success ? withSpec.output.spec : undefined;
	if (spec === undefined) {
		throw importError('import.error.cardNoSpec');
	}
	if (typeof spec !== 'string' || !CARD_SPECS.some((s) => s === spec)) {
		throw importError('import.error.cardSpec', { spec: JSON.stringify(spec).slice(0, 60) });
	}
	const card = v.safeParse(Card, json);
	if (!card.success) {
		const issue = card.issues[0];
		const path = v.getDotPath(issue);
		// The schema's own detail (valibot's wording) stays as it is; the sentence around it is the reader's.
		throw path
			? importError('import.error.cardMalformedAt', { spec, path, detail: issue.message })
			: importError('import.error.cardMalformed', { spec, detail: issue.message });
	}
	return card.output;
}

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;
/** Characters the speaker tags reserve (see worlds/schema): dropped from the NPC's name. */
const TAG_RESERVED = /[@＠:：()（）]/g;
/** A stage name has to fit a speaker tag. */
const MAX_NPC_NAME = 40;
const MAX_TAGLINE = 200;
const MAX_TITLE = 200;

const WORDS: Record<Language, { user: string; examples: string; greetings: string; entry: string }> = {
	ja: { user: 'プレイヤー', examples: '会話の例', greetings: 'ほかの始まり方', entry: '項目' },
	en: { user: 'the player', examples: 'Example dialogue', greetings: 'Other openings', entry: 'Entry' }
};

function oneLine(value: string, max: number): string {
	const flat = value.replace(/\s+/g, ' ').trim();
	return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}

/** The card as a draft preset's form: everything mapped that has a place, the rest left empty. */
export function cardToForm(card: CharacterCard): PresetForm {
	const d = card.data;
	const language: Language = JAPANESE.test(`${d.name}${d.description}${d.scenario}${d.first_mes}`) ? 'ja' : 'en';
	const w = WORDS[language];
	const name = oneLine(d.name.replace(TAG_RESERVED, ' '), MAX_NPC_NAME);
	// The card's macros name the character and the user; in a preset they are the NPC and the player.
	const fill = (s: string) =>
		s
			.replace(/\{\{char\}\}|<BOT>/gi, name)
			.replace(/\{\{user\}\}|<USER>/gi, w.user)
			.replace(/\r\n?/g, '\n')
			.trim();
	const form = emptyForm(language);
	const entries = (d.character_book?.entries ?? []).filter((e) => e.enabled && e.content.trim() !== '');
	const setting = entries
		.map((e, i) => `## ${oneLine(e.name || e.comment || e.keys.join(', ') || `${w.entry} ${i + 1}`, MAX_TITLE)}\n\n${fill(e.content)}`)
		.join('\n\n');
	const personality = [
		fill(d.description),
		fill(d.personality),
		d.mes_example.trim() ? `## ${w.examples}\n\n${fill(d.mes_example)}` : ''
	].filter((p) => p !== '');
	const greetings = d.alternate_greetings.map(fill).filter((g) => g !== '');
	const situation = [
		fill(d.first_mes),
		greetings.length > 0 ? `## ${w.greetings}\n\n${greetings.map((g) => `- ${g.replace(/\n+/g, ' ')}`).join('\n')}` : ''
	].filter((p) => p !== '');
	const result: PresetForm = {
		...form,
		title: oneLine(d.name, MAX_TITLE),
		tagline: oneLine(fill(d.creator_notes) || fill(d.scenario), MAX_TAGLINE),
		documents: {
			...form.documents,
			premise: { ...form.documents.premise, body: fill(d.scenario) },
			setting: { ...form.documents.setting, body: setting }
		},
		npcs: [
			{
				name,
				role: oneLine(d.nickname ?? '', MAX_TITLE),
				appearance: fill(d.description),
				personality: personality.join('\n\n'),
				present: true
			}
		],
		gmBehaviour: [fill(d.system_prompt), fill(d.post_history_instructions)].filter((p) => p !== '').join('\n\n'),
		opening: { ...form.opening, situation: situation.join('\n\n') }
	};
	// The draft's own bounds: a card too big for them is refused here, before anything is stored.
	const bounded = v.safeParse(PresetFormSchema, result);
	if (!bounded.success) {
		throw importError('import.error.cardTooLarge', { path: v.getDotPath(bounded.issues[0]) ?? 'card', detail: bounded.issues[0].message });
	}
	return bounded.output;
}

/**
 * A Character Card as a draft preset that plays as it is, with a report of every field:
 * - name (or nickname) → the title and the one NPC; description / personality / example dialogue →
 *   the NPC's GM-only personality, a look moved out only where one is labelled (description.ts);
 * - scenario → the premise (else a scenario labelled inside the description, else a neutral line);
 * - first_mes → the opening narration the player reads after the title card, as the screen's script
 *   (script.ts); alternate_greetings → the other openings the player may pick there;
 * - creator_notes → the author's notes (never the tagline: the tagline is the premise's first line);
 * - system_prompt + post_history_instructions → the GM behaviour; tags → tags; creator,
 *   character_version, source → the attribution;
 * - the lorebook → world-setting sections (lore.ts); macros resolved (macros.ts);
 * - what a card has no notion of (PC sheet, opening place, plot…) → neutral defaults (defaults.ts);
 * - everything else, unknown fields and extensions included, kept for export (keep.ts).
 */
import type { JsonObject, JsonValue } from '../../records';
import { emptyForm, type PresetForm } from '../../../presets/form';
import { formatOpenings } from '../../../presets/authoring-form';
import type { ImportReport } from '../../../types/presets';
import type { Language } from '../../../types/settings';
import { MAX_OPENING_CHOICES, MAX_TAGS, MAX_TAG_CHARS } from '../../worlds';
import { DEFAULTS, languageOf } from './defaults';
import { splitDescription } from './description';
import { CARD_WORDS, type CardSource } from './from-preset';
import { keepOf, keptRows, withReport } from './keep';
import { loreSections, sectionMarkdown, type LoreSection } from './lore';
import { resolveMacros } from './macros';
import { ReportBuilder } from './report';
import { greetingToScript, openingLabel } from './script';
import { KNOWN_CARD_FIELDS, type LoreEntry, type ParsedCard } from './spec';
import { MIN_SETTING_HEADINGS } from '../../worlds';

export interface Imported {
	readonly form: PresetForm;
	readonly report: ImportReport;
}

/** Characters the speaker tags reserve (see worlds/schema): dropped from the NPC's name. */
const TAG_RESERVED = /[@＠:：()（）]/g;
const MAX_NPC_NAME = 40;
const MAX_LINE = 200;

export function oneLine(value: string, max: number): string {
	const flat = value.replace(/\s+/g, ' ').trim();
	return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}

/** A card form's fields as the card export reads them (what the keep's fingerprints are taken of). */
export function sourceOfForm(form: PresetForm, alternatives: readonly { narration: string }[], tags: readonly string[]): CardSource {
	return {
		language: form.language,
		title: form.title,
		documents: form.documents,
		npcs: form.npcs,
		gmBehaviour: form.gmBehaviour,
		opening: { narration: form.opening.narration, alternatives },
		notes: form.notes,
		tags,
		attribution: {
			creator: form.attribution.creator,
			version: form.attribution.version,
			source: form.attribution.source.split('\n').filter((s) => s !== '')
		}
	};
}

/** Lorebook entries as setting text, each mapped or dropped in the report. */
export function loreToSetting(
	entries: readonly LoreEntry[],
	language: Language,
	char: string,
	report: ReportBuilder
): { markdown: string; sections: LoreSection[] } {
	const d = DEFAULTS[language];
	const sections = loreSections(
		entries,
		(t) => resolveMacros(t, 'gm', { char, language }),
		(n) => `${d.entry} ${n}`
	);
	for (const e of entries) {
		const section = sections.find((s) => s.entry === e);
		if (section) {
			report.map(e.at, `documents.setting.body › ${section.title}`);
			if (section.decorators > 0) report.drop(`${e.at}.content`, 'decorators');
		} else report.drop(e.at, e.enabled ? 'empty' : 'disabled');
	}
	const flags = new Set(
		entries.flatMap((e) => Object.keys(e.extra)).filter((k) => !['name', 'comment', 'extensions', 'id', 'uid'].includes(k))
	);
	// Named where the file has them: `data.character_book.entries.*.position`, a World Info file's `entries.*.order`.
	const each = (entries[0]?.at ?? 'entries.0').replace(/\.\d+$/, '.*');
	for (const flag of flags) report.drop(`${each}.${flag}`, 'notPlayed');
	const markdown = sections.map((s) => sectionMarkdown({ ...s, keys: s.entry.keys, always: s.entry.constant }, language)).join('\n\n');
	return { markdown, sections };
}

function tagsOf(tags: readonly string[]): string[] {
	const seen = new Set<string>();
	return tags
		.map((t) => oneLine(t, MAX_TAG_CHARS))
		.filter((t) => t !== '' && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()))
		.slice(0, MAX_TAGS);
}

/** The card as a draft preset's form and the report (`picture`: it came in a PNG, whose picture is not imported). */
export function cardToPreset(card: ParsedCard, options: { picture: boolean }): Imported {
	const c = card.data;
	const language = languageOf(`${c.name}${c.description}${c.scenario}${c.first_mes}`);
	const d = DEFAULTS[language];
	const report = new ReportBuilder();
	const prefix = card.spec === 'v1' ? '' : 'data.';
	const at = (field: string) => `${prefix}${field}`;
	const name = oneLine(c.name.replace(TAG_RESERVED, ' '), MAX_NPC_NAME);
	// The spec's nickname is what `{{char}}` stands for in the text; the character keeps their name.
	const called = oneLine(c.nickname, MAX_NPC_NAME) || name;
	const gm = (s: string) => resolveMacros(s, 'gm', { char: called, language }).trim();
	const player = (s: string) => resolveMacros(s, 'player', { char: called, language }).trim();

	const described = splitDescription(c.description);
	const premise = player(c.scenario) || player(described.scenario);
	const examples = c.mes_example.trim()
		? gm(
				c.mes_example
					.replace(/^\s*<start>\s*$/gim, '')
					.replace(/^\s*(?:\{\{\s*char\s*\}\}|<bot>|<char>)\s*:/gim, `@${name}:`)
					.replace(/^\s*(?:\{\{\s*user\s*\}\}|<user>)\s*:/gim, `${CARD_WORDS[language].player}:`)
			).replace(/\n{3,}/g, '\n\n')
		: '';
	const personality = [gm(described.rest), gm(c.personality), examples ? `## ${CARD_WORDS[language].examples}\n\n${examples}` : '']
		.filter((p) => p !== '')
		.join('\n\n');
	const narration = greetingToScript(player(c.first_mes), name);
	const greetings = c.alternate_greetings.map((g) => greetingToScript(player(g), name)).filter((g) => g !== '');
	const alternatives = greetings.slice(0, MAX_OPENING_CHOICES).map((g) => ({ label: openingLabel(g), narration: g }));
	const look = oneLine(described.look, 1_000);
	const behaviour = [gm(c.system_prompt), gm(c.post_history_instructions)].filter((p) => p !== '').join('\n\n');
	const tags = tagsOf(c.tags);

	const form = emptyForm(language);
	const lore = loreToSetting(card.lore, language, name, report);
	const scene = { name: d.scene, description: d.sceneLook };
	const setting = [lore.markdown];
	// A setting is searched by section and needs a few: neutral ones from what the player sees anyway.
	const padding = [
		`## ${name}\n\n${[d.role, look || d.look].join('. ')}`,
		`## ${scene.name}\n\n${scene.description}`,
		`## ${d.overview}\n\n${premise || d.premise(name)}`
	];
	for (let i = 0; lore.sections.length + i < MIN_SETTING_HEADINGS; i++) setting.push(padding[i] ?? '');

	const result: PresetForm = {
		...form,
		title: oneLine(c.name, MAX_LINE),
		tagline: oneLine(openingLabel(premise || d.premise(name), MAX_LINE), MAX_LINE),
		documents: {
			premise: { ...form.documents.premise, body: premise || d.premise(name) },
			setting: { ...form.documents.setting, body: setting.filter((s) => s !== '').join('\n\n') },
			pc: { ...form.documents.pc, body: d.pc }
		},
		npcs: [{ name, role: d.role, appearance: look || d.look, personality: personality || d.personality(name), present: true }],
		gmBehaviour: behaviour || d.gmBehaviour(name),
		plot: { ...form.plot, body: d.plot(name) },
		secrets: [],
		opening: { scene, situation: d.situation(name), state: '{}', narration, alternatives: formatOpenings(alternatives) },
		notes: c.creator_notes,
		tags: tags.join(', '),
		attribution: { creator: oneLine(c.creator, MAX_LINE), version: oneLine(c.character_version, MAX_LINE), source: c.source.join('\n') },
		remixAllowed: false,
		card: ''
	};

	reportCard(card, report, {
		at,
		look: look !== '',
		scenarioInDescription: !c.scenario.trim() && described.scenario !== '',
		greetings: greetings.length
	});
	if (lore.sections.length < MIN_SETTING_HEADINGS) report.fill('documents.setting.body');
	for (const path of [
		'npcs.0.role',
		'documents.pc.body',
		'plot.body',
		'opening.scene.name',
		'opening.scene.description',
		'opening.situation'
	])
		report.fill(path);
	if (!look) report.fill('npcs.0.appearance');
	if (!premise) report.fill('documents.premise.body');
	if (!behaviour) report.fill('gmBehaviour');
	if (!personality) report.fill('npcs.0.personality');
	if (options.picture) report.drop('PNG image', 'picture');

	const raw: JsonObject = card.spec === 'v1' ? { ...card.raw } : card.raw;
	const keep = keepOf(
		{
			spec: card.spec === 'v1' ? 'chara_card_v2' : card.spec,
			data: raw,
			top: card.top,
			lore: Object.fromEntries(lore.sections.map((s) => [s.title, s.entry.extra]))
		},
		sourceOfForm(result, alternatives, tags),
		report
	);
	const built = report.build();
	return { form: { ...result, card: JSON.stringify(withReport(keep, built)) }, report: built };
}

function reportCard(
	card: ParsedCard,
	report: ReportBuilder,
	o: { at: (f: string) => string; look: boolean; scenarioInDescription: boolean; greetings: number }
): void {
	const filled = (value: JsonValue | undefined) =>
		Array.isArray(value) ? value.length > 0 : typeof value === 'string' ? value.trim() !== '' : value != null;
	const route: Record<string, string[]> = {
		name: ['title', 'npcs.0.name'],
		nickname: ['npcs.0.personality', 'opening.narration'],
		description: [
			'npcs.0.personality',
			...(o.look ? ['npcs.0.appearance'] : []),
			...(o.scenarioInDescription ? ['documents.premise.body'] : [])
		],
		personality: ['npcs.0.personality'],
		mes_example: ['npcs.0.personality'],
		scenario: ['documents.premise.body', 'tagline'],
		first_mes: ['opening.narration'],
		alternate_greetings: ['opening.alternatives'],
		creator_notes: ['notes'],
		system_prompt: ['gmBehaviour'],
		post_history_instructions: ['gmBehaviour'],
		tags: ['tags'],
		creator: ['attribution.creator'],
		character_version: ['attribution.version'],
		source: ['attribution.source']
	};
	for (const field of KNOWN_CARD_FIELDS) {
		const value = card.raw[field];
		if (field === 'character_book' || field === 'extensions') continue;
		if (!filled(value)) {
			if (field in card.raw) report.drop(o.at(field), 'empty');
			continue;
		}
		for (const to of route[field] ?? []) report.map(o.at(field), to);
	}
	if (o.greetings > MAX_OPENING_CHOICES)
		report.drop(o.at(`alternate_greetings.${MAX_OPENING_CHOICES}`), 'keptForExport', `more than ${MAX_OPENING_CHOICES}`);
	const known: readonly string[] = KNOWN_CARD_FIELDS;
	for (const field of Object.keys(card.raw)) if (!known.includes(field) && field !== 'assets') report.drop(o.at(field), 'keptForExport');
	for (const row of keptRows(o.at('extensions'), card.raw.extensions))
		if (row !== o.at('extensions.kantera')) report.drop(row, 'keptForExport');
	for (const field of Object.keys(card.top)) report.drop(field, 'keptForExport');
	const book = card.raw.character_book;
	if (book && typeof book === 'object' && !Array.isArray(book))
		for (const field of Object.keys(book)) if (field !== 'entries') report.drop(o.at(`character_book.${field}`), 'notPlayed');
	if (Array.isArray(card.raw.assets)) report.drop(o.at('assets'), 'assets');
}

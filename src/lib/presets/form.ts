/**
 * The preset editor's form: the world preset as the author types it (every value a string, the
 * markers one per line, the state as JSON text, "on stage at the opening" as a tick per NPC). It is
 * what a form post carries, what autosave stores as a draft and what an import produces; turning it
 * into the preset schema's input (`formToInput`) is the one step between the two shapes.
 *
 * Browser-safe: the editor, the API's draft endpoint and the server's form actions share it.
 * Field names in the HTML are the dot paths used here (`npcs.0.name`), which are also the paths of
 * the schema's issues, so each error lands next to its field.
 */
import * as v from 'valibot';
import { isLanguage, LanguageSchema, type Language } from '../types/settings';
import { PRESET_RATINGS, type PresetRating } from '../types/rating';
import { MAX_PRESET_DEPTH, tooDeepAt } from './depth';
import { anachronismsFromText, anachronismsToText, type Anachronism } from './anachronisms';
import { formatKept, formatLines, formatOpenings, formatTags, parseKept, parseLines, parseOpenings, parseTags } from './authoring-form';

interface DocumentForm {
	title: string;
	body: string;
}

export interface NpcForm {
	name: string;
	role: string;
	appearance: string;
	personality: string;
	/** On stage when play begins (the opening's `present`, in NPC order). */
	present: boolean;
}

export interface SecretForm {
	key: string;
	title: string;
	body: string;
	/** One marker per line. */
	markers: string;
}

export interface PresetForm {
	language: Language;
	title: string;
	tagline: string;
	documents: { premise: DocumentForm; setting: DocumentForm; pc: DocumentForm };
	gmNotesTitle: string;
	npcs: NpcForm[];
	gmBehaviour: string;
	plot: { title: string; body: string };
	secrets: SecretForm[];
	opening: {
		scene: { name: string; description: string };
		situation: string;
		state: string;
		/** What the player reads after the title card. */
		narration: string;
		/** Other openings, `## Label` then the narration (authoring-form.ts). */
		alternatives: string;
	};
	/** The author's notes: never shown to players or the GM. */
	notes: string;
	/** Comma-separated. */
	tags: string;
	/** `source`: one per line. */
	attribution: { creator: string; version: string; source: string };
	/** `general` or `mature` (the gallery hides mature worlds from those who did not opt in). */
	rating: PresetRating;
	remixAllowed: boolean;
	/** What a card import kept for export, as JSON text ('' when none): carried, never edited. */
	card: string;
	/** The world this one was remixed from, as JSON text ('' when none): carried, never edited. */
	remixOf: string;
	/** What does not exist in this world: one thing per line, terms separated by commas, then `: note` (anachronisms.ts). */
	anachronisms: string;
}

export const DOCUMENT_NAMES = ['premise', 'setting', 'pc'] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

export type { PresetLimits } from './limits';

/** Generous caps for drafts: unsaved work may be over the preset's limits, but never unbounded. */
const DRAFT_TEXT_MAX = 400_000;
const DRAFT_LINE_MAX = 2_000;
/** Rows a draft may hold: a few over the preset's limits, so an over-full import can still be trimmed in the editor. */
export const DRAFT_MAX_ROWS = 40;

const line = v.pipe(v.string(), v.maxLength(DRAFT_LINE_MAX));
const block = v.pipe(v.string(), v.maxLength(DRAFT_TEXT_MAX));
const doc = v.object({ title: line, body: block });

/** A stored or posted draft: the form's shape with bounded strings. Validates autosave bodies and imports. */
export const PresetFormSchema = v.object({
	language: LanguageSchema,
	title: line,
	tagline: line,
	documents: v.object({ premise: doc, setting: doc, pc: doc }),
	gmNotesTitle: line,
	npcs: v.pipe(
		v.array(v.object({ name: line, role: line, appearance: block, personality: block, present: v.boolean() })),
		v.maxLength(DRAFT_MAX_ROWS, `a draft holds at most ${DRAFT_MAX_ROWS} NPCs`)
	),
	gmBehaviour: block,
	plot: v.object({ title: line, body: block }),
	secrets: v.pipe(
		v.array(v.object({ key: line, title: line, body: block, markers: block })),
		v.maxLength(DRAFT_MAX_ROWS, `a draft holds at most ${DRAFT_MAX_ROWS} secrets`)
	),
	opening: v.object({
		scene: v.object({ name: line, description: block }),
		situation: block,
		state: block,
		// Drafts stored before these fields existed still read.
		narration: v.optional(block, ''),
		alternatives: v.optional(block, '')
	}),
	notes: v.optional(block, ''),
	tags: v.optional(line, ''),
	attribution: v.optional(v.object({ creator: line, version: line, source: block }), { creator: '', version: '', source: '' }),
	rating: v.optional(v.picklist(PRESET_RATINGS), 'general'),
	remixAllowed: v.optional(v.boolean(), false),
	card: v.optional(block, ''),
	remixOf: v.optional(line, ''),
	// Drafts stored before the field existed read as an empty list.
	anachronisms: v.optional(block, '')
});

const emptyNpc = (): NpcForm => ({ name: '', role: '', appearance: '', personality: '', present: false });
const emptySecret = (): SecretForm => ({ key: '', title: '', body: '', markers: '' });

const DEFAULT_TITLES: Record<Language, { premise: string; setting: string; pc: string; gmNotes: string; plot: string }> = {
	ja: { premise: '前提', setting: '世界設定', pc: 'PCシート', gmNotes: 'GMメモ', plot: 'メインプロット' },
	en: { premise: 'Premise', setting: 'World Setting', pc: 'PC Sheet', gmNotes: 'GM Notes', plot: 'Main Plot' }
};

/** A new preset's form: the usual document titles filled in, one empty NPC and one empty secret. */
export function emptyForm(language: Language): PresetForm {
	const t = DEFAULT_TITLES[language];
	return {
		language,
		title: '',
		tagline: '',
		documents: { premise: { title: t.premise, body: '' }, setting: { title: t.setting, body: '' }, pc: { title: t.pc, body: '' } },
		gmNotesTitle: t.gmNotes,
		npcs: [emptyNpc()],
		gmBehaviour: '',
		plot: { title: t.plot, body: '' },
		secrets: [emptySecret()],
		opening: { scene: { name: '', description: '' }, situation: '', state: '{}', narration: '', alternatives: '' },
		notes: '',
		tags: '',
		attribution: { creator: '', version: '', source: '' },
		rating: 'general',
		remixAllowed: false,
		card: '',
		remixOf: '',
		anachronisms: ''
	};
}

export const addNpc = (form: PresetForm): PresetForm => ({ ...form, npcs: [...form.npcs, emptyNpc()] });
export const addSecret = (form: PresetForm): PresetForm => ({ ...form, secrets: [...form.secrets, emptySecret()] });
export const removeNpc = (form: PresetForm, index: number): PresetForm => ({ ...form, npcs: form.npcs.filter((_, i) => i !== index) });
export const removeSecret = (form: PresetForm, index: number): PresetForm => ({
	...form,
	secrets: form.secrets.filter((_, i) => i !== index)
});

/** The preset as the schema reads it, from a valid preset (an export, a stored version, an official world). */
export interface PresetContentLike {
	language: Language;
	title: string;
	tagline: string;
	documents: { premise: DocumentForm; setting: DocumentForm; pc: DocumentForm };
	gmNotesTitle: string;
	npcs: readonly { name: string; role: string; appearance: string; personality: string }[];
	gmBehaviour: string;
	plot: { title: string; body: string };
	secrets: readonly { key: string; title: string; body: string; markers?: readonly string[] }[];
	opening: {
		scene: { name: string; description: string };
		present: readonly string[];
		situation: string;
		state: unknown;
		narration?: string;
		alternatives?: readonly { label: string; narration: string }[];
	};
	notes?: string;
	tags?: readonly string[];
	attribution?: { creator: string; version: string; source: readonly string[] };
	rating?: PresetRating;
	remixAllowed?: boolean;
	card?: unknown;
	remixOf?: { id: string; title: string; author: string };
	anachronisms?: readonly Anachronism[];
}

export function formFromContent(content: PresetContentLike): PresetForm {
	const present = new Set(content.opening.present);
	return {
		language: content.language,
		title: content.title,
		tagline: content.tagline,
		documents: {
			premise: { ...content.documents.premise },
			setting: { ...content.documents.setting },
			pc: { ...content.documents.pc }
		},
		gmNotesTitle: content.gmNotesTitle,
		npcs: content.npcs.map((n) => ({
			name: n.name,
			role: n.role,
			appearance: n.appearance,
			personality: n.personality,
			present: present.has(n.name)
		})),
		gmBehaviour: content.gmBehaviour,
		plot: { ...content.plot },
		secrets: content.secrets.map((s) => ({ key: s.key, title: s.title, body: s.body, markers: (s.markers ?? []).join('\n') })),
		opening: {
			scene: { ...content.opening.scene },
			situation: content.opening.situation,
			state: JSON.stringify(content.opening.state, null, 2),
			narration: content.opening.narration ?? '',
			alternatives: formatOpenings(content.opening.alternatives ?? [])
		},
		notes: content.notes ?? '',
		tags: formatTags(content.tags ?? []),
		attribution: {
			creator: content.attribution?.creator ?? '',
			version: content.attribution?.version ?? '',
			source: formatLines(content.attribution?.source ?? [])
		},
		rating: content.rating ?? 'general',
		remixAllowed: content.remixAllowed ?? false,
		card: formatKept(content.card),
		remixOf: content.remixOf ? JSON.stringify(content.remixOf) : '',
		anachronisms: anachronismsToText(content.anachronisms ?? [], content.language)
	};
}

function markerLines(markers: string): string[] {
	return markers
		.split(/\r?\n/)
		.map((m) => m.trim())
		.filter((m) => m !== '');
}

/** The opening state's JSON text, parsed; `undefined` when it is not JSON at all. */
function parseStateText(text: string): unknown {
	if (text.trim() === '') return {};
	try {
		const value: unknown = JSON.parse(text);
		return value;
	} catch {
		return undefined;
	}
}

/**
 * The form as the preset schema's input. The state stays its text when it is not JSON (the schema
 * then refuses it as "not a JSON object", next to its field).
 */
export function formToInput(form: PresetForm): Record<string, unknown> {
	const state = parseStateText(form.opening.state);
	return {
		language: form.language,
		title: form.title,
		tagline: form.tagline,
		documents: form.documents,
		gmNotesTitle: form.gmNotesTitle,
		npcs: form.npcs.map((n) => ({ name: n.name, role: n.role, appearance: n.appearance, personality: n.personality })),
		gmBehaviour: form.gmBehaviour,
		plot: form.plot,
		// A secret row left wholly blank is no secret: a world may have none.
		secrets: form.secrets
			.filter((s) => `${s.key}${s.title}${s.body}${s.markers}`.trim() !== '')
			.map((s) => ({ key: s.key, title: s.title, body: s.body, markers: markerLines(s.markers) })),
		opening: {
			scene: form.opening.scene,
			present: form.npcs.filter((n) => n.present).map((n) => n.name.trim()),
			situation: form.opening.situation,
			state: state === undefined ? form.opening.state : state,
			narration: form.opening.narration,
			alternatives: parseOpenings(form.opening.alternatives)
		},
		notes: form.notes,
		tags: parseTags(form.tags),
		attribution: { creator: form.attribution.creator, version: form.attribution.version, source: parseLines(form.attribution.source) },
		rating: form.rating,
		remixAllowed: form.remixAllowed,
		...(form.card.trim() === '' ? {} : { card: parseKept(form.card) }),
		...(form.remixOf.trim() === '' ? {} : { remixOf: parseKept(form.remixOf) }),
		anachronisms: anachronismsFromText(form.anachronisms)
	};
}

/** What the leak check reads from the form, as the author has typed it. */
export function leakInputOf(form: PresetForm) {
	return {
		title: form.title,
		tagline: form.tagline,
		documents: form.documents,
		npcs: form.npcs,
		secrets: form.secrets.map((s) => ({ key: s.key.trim() || s.title.trim(), markers: markerLines(s.markers) })),
		opening: {
			scene: form.opening.scene,
			state: form.opening.state,
			narration: form.opening.narration,
			alternatives: form.opening.alternatives
		},
		tags: form.tags,
		attribution: form.attribution
	};
}

/** `npcs[2].appearance` (the leak check's spelling) as a form field name, `npcs.2.appearance`. */
export function fieldOfLeak(field: string): string {
	return field.replace(/\[(\d+)\]/g, '.$1');
}

/** Form fields by their HTML name. Numbered rows are read in index order; gaps are closed up. */
export function formFromFormData(data: FormData): PresetForm {
	const text = (name: string): string => {
		const value = data.get(name);
		return typeof value === 'string' ? value : '';
	};
	const rows = (prefix: string): number[] => {
		const seen = new Set<number>();
		for (const key of data.keys()) {
			const m = new RegExp(`^${prefix}\\.(\\d{1,3})\\.`).exec(key);
			if (m?.[1] !== undefined) seen.add(Number(m[1]));
		}
		return [...seen].sort((a, b) => a - b).slice(0, DRAFT_MAX_ROWS);
	};
	const language = text('language');
	const doc = (name: DocumentName): DocumentForm => ({ title: text(`documents.${name}.title`), body: text(`documents.${name}.body`) });
	return {
		language: isLanguage(language) ? language : 'en',
		title: text('title'),
		tagline: text('tagline'),
		documents: { premise: doc('premise'), setting: doc('setting'), pc: doc('pc') },
		gmNotesTitle: text('gmNotesTitle'),
		npcs: rows('npcs').map((i) => ({
			name: text(`npcs.${i}.name`),
			role: text(`npcs.${i}.role`),
			appearance: text(`npcs.${i}.appearance`),
			personality: text(`npcs.${i}.personality`),
			present: data.get(`npcs.${i}.present`) !== null
		})),
		gmBehaviour: text('gmBehaviour'),
		plot: { title: text('plot.title'), body: text('plot.body') },
		secrets: rows('secrets').map((i) => ({
			key: text(`secrets.${i}.key`),
			title: text(`secrets.${i}.title`),
			body: text(`secrets.${i}.body`),
			markers: text(`secrets.${i}.markers`)
		})),
		opening: {
			scene: { name: text('opening.scene.name'), description: text('opening.scene.description') },
			situation: text('opening.situation'),
			state: text('opening.state'),
			narration: text('opening.narration'),
			alternatives: text('opening.alternatives')
		},
		notes: text('notes'),
		tags: text('tags'),
		attribution: { creator: text('attribution.creator'), version: text('attribution.version'), source: text('attribution.source') },
		rating: text('rating') === 'mature' ? 'mature' : 'general',
		remixAllowed: data.get('remixAllowed') !== null,
		card: text('card'),
		remixOf: text('remixOf'),
		anachronisms: text('anachronisms')
	};
}

const HEADING_LINES = /^ {0,3}#{1,6}[ \t\u3000]+\S/gm;

/** Markdown headings in a text, as the world schema counts them (the setting needs a few). */
export function countHeadings(markdown: string): number {
	return markdown.match(HEADING_LINES)?.length ?? 0;
}

/**
 * Bytes of the preset as stored (its JSON in UTF-8): what the whole-preset size limit counts. A value
 * nested deeper than MAX_PRESET_DEPTH is not measured (JSON.stringify would overflow the stack): it
 * counts as infinitely large, and the server refuses it for its depth first.
 */
export function presetBytes(input: unknown): number {
	if (tooDeepAt(input, MAX_PRESET_DEPTH) !== undefined) return Number.POSITIVE_INFINITY;
	return new TextEncoder().encode(JSON.stringify(input)).byteLength;
}

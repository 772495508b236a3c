/**
 * Preset files: the JSON a preset is exported as and imported from. Versioned, so a later Kantera
 * can read what an earlier one wrote (and an earlier one says plainly that a file is too new):
 *
 *   { "format": "kantera.preset", "formatVersion": 1, "exportedAt": "…", "preset": { …the preset's fields without id… },
 *     "sounds": [ { "kind": "music", "name": "…", "data": "…base64…" } ] }   (optional: audio-exchange.ts)
 *
 * An import becomes a draft: fields are read loosely (a hand-edited file with a mistake still opens
 * in the editor, where the mistake is shown next to its field), but a file that is not this format,
 * or one from a newer format version, is refused.
 */
import * as v from 'valibot';
import { formFromContent, PresetFormSchema, type PresetForm } from '../../presets/form';
import type { WorldPreset } from '../worlds';
import { LanguageSchema } from '../../types/settings';
import { contentOf } from './content';
import { importError } from './errors';
import { withoutControlCharacters } from '../validation';
import { fileSounds, type FileSound } from './audio-exchange';
import type { AudioFile } from './audio';

const PRESET_FILE_FORMAT = 'kantera.preset';
const PRESET_FILE_VERSION = 1;

export interface PresetFile {
	format: typeof PRESET_FILE_FORMAT;
	formatVersion: number;
	exportedAt: string;
	preset: Omit<WorldPreset, 'id'>;
	sounds?: FileSound[];
}

export function exportPreset(preset: WorldPreset, now = Date.now(), sounds: readonly AudioFile[] = []): PresetFile {
	return {
		format: PRESET_FILE_FORMAT,
		formatVersion: PRESET_FILE_VERSION,
		exportedAt: new Date(now).toISOString(),
		preset: contentOf(preset),
		...(sounds.length > 0 ? { sounds: fileSounds(sounds) } : {})
	};
}

/** A file name for the download: the title's letters and digits, or the id, then `ending`. */
export function exportFileName(preset: Pick<WorldPreset, 'id' | 'title'>, ending = '.kantera-preset.json'): string {
	const slug = preset.title
		.normalize('NFKC')
		.replace(/[^\p{L}\p{N}]+/gu, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${slug || preset.id}${ending}`;
}

/** Text as the draft takes it: refused with a control character in it, as every text field is (it would be stored cut at a NUL). */
const line = v.pipe(v.string(), withoutControlCharacters('The text'));
const str = v.optional(line, '');
const Doc = v.optional(v.object({ title: str, body: str }), { title: '', body: '' });
const LoosePreset = v.object({
	language: v.optional(LanguageSchema, 'en'),
	title: str,
	tagline: str,
	documents: v.optional(v.object({ premise: Doc, setting: Doc, pc: Doc }), {}),
	gmNotesTitle: str,
	npcs: v.optional(v.array(v.object({ name: str, role: str, appearance: str, personality: str })), []),
	gmBehaviour: str,
	plot: v.optional(v.object({ title: str, body: str }), { title: '', body: '' }),
	secrets: v.optional(v.array(v.object({ key: str, title: str, body: str, markers: v.optional(v.array(line), []) })), []),
	opening: v.optional(
		v.object({
			scene: v.optional(v.object({ name: str, description: str }), { name: '', description: '' }),
			present: v.optional(v.array(line), []),
			situation: str,
			state: v.optional(v.unknown(), {}),
			narration: str,
			alternatives: v.optional(v.array(v.object({ label: str, narration: str })), [])
		}),
		{}
	),
	notes: str,
	tags: v.optional(v.array(v.string()), []),
	attribution: v.optional(v.object({ creator: str, version: str, source: v.optional(v.array(v.string()), []) }), {
		creator: '',
		version: '',
		source: []
	}),
	remixAllowed: v.optional(v.boolean(), false),
	card: v.optional(v.unknown()),
	anachronisms: v.optional(v.array(v.object({ terms: v.optional(v.array(v.string()), []), note: v.optional(v.string()) })), [])
});

const Envelope = v.object({
	format: v.literal(PRESET_FILE_FORMAT),
	formatVersion: v.pipe(v.number(), v.integer(), v.minValue(1)),
	preset: v.unknown()
});

export function isPresetFile(json: unknown): boolean {
	return typeof json === 'object' && json !== null && 'format' in json && json.format === PRESET_FILE_FORMAT;
}

/** A preset file as a draft's form, or PresetError('bad_import'). */
export function presetFileToForm(json: unknown): PresetForm {
	const envelope = v.safeParse(Envelope, json);
	// A schema's own detail (valibot's wording) stays as it is; the sentence around it is the reader's.
	if (!envelope.success) throw importError('import.error.notPresetFile', { detail: envelope.issues[0].message });
	if (envelope.output.formatVersion > PRESET_FILE_VERSION)
		throw importError('import.error.formatVersion', { found: envelope.output.formatVersion, known: PRESET_FILE_VERSION });
	const preset = v.safeParse(LoosePreset, envelope.output.preset);
	if (!preset.success) {
		const path = v.getDotPath(preset.issues[0]);
		const detail = preset.issues[0].message;
		throw path ? importError('import.error.presetMalformedAt', { path, detail }) : importError('import.error.presetMalformed', { detail });
	}
	const form = formFromContent(preset.output);
	const bounded = v.safeParse(PresetFormSchema, form);
	if (!bounded.success)
		throw importError('import.error.presetTooLarge', {
			path: v.getDotPath(bounded.issues[0]) ?? 'preset',
			detail: bounded.issues[0].message
		});
	return bounded.output;
}
